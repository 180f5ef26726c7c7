import { join } from 'node:path';
import type { Config } from '../config.js';
import { createFsMediaStore } from './fs-store.js';
import type { MediaStore } from './media.js';

/** The media store of this deployment: files under the data dir (the place to choose another backend). */
export function createMediaStore(config: Config): MediaStore {
  return createFsMediaStore(join(config.dataDir, 'media'), config.publicUrl);
}

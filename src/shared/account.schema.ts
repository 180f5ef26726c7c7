import { Type } from '@sinclair/typebox';

/** What every account of the service shares (admins and customers): one email format, one password length. */

export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 256;

/** For customers, addresses and orders alike. */
export const Email = Type.String({ maxLength: 320, pattern: EMAIL.source, description: 'an email address' });

export const Password = Type.String({ minLength: MIN_PASSWORD, maxLength: MAX_PASSWORD });

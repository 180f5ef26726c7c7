/** What other folders may use of stores and admins: the CLI and the server create them, POST /auth finds them. */
export { ensureDemoStore } from './demo.js';
export {
  countStores,
  createAdmin,
  createStore,
  findAdminByEmail,
  findStoreBySlug,
  listAdmins,
  listStores,
  requireStore,
  storeCurrency,
  updateStore,
} from './stores.service.js';
export type { StoreRecord } from './stores.sql.js';

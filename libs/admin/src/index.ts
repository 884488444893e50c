export { adminService, AdminError, parseLanguages, parseOrigin } from './admin.service';
export type { AdminOptions, AdminService, AuthTable, CreatedEshop, EshopDetails } from './admin.service';
export { authChangePublisher } from './auth-changes';
export type { AuthChangePublisher } from './auth-changes';
export { runCli, USAGE } from './cli-commands';
export type { CliIo } from './cli-commands';
export {
  demoHostHandler,
  demoHostPage,
  LOCAL_WEBHOOK_RECEIVERS,
  startDemoHost,
  type DemoBulkOptions,
} from './demo-host';
export { DEMO_PRODUCT, seedDemoProduct } from './demo-seed';
export type { DemoHostOptions } from './demo-host';

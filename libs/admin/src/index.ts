export { adminService, AdminError, parseLanguages, parseOrigin } from './admin.service';
export type { AdminOptions, AdminService, CreatedEshop, EshopDetails } from './admin.service';
export { runCli, USAGE } from './cli-commands';
export type { CliIo } from './cli-commands';
export { demoHostPage, startDemoHost } from './demo-host';
export type { DemoHostOptions } from './demo-host';

export { loadConfig, loadConfigOrExit, ConfigError } from './config';
export type { Config } from './config';
export { LANGUAGES, V3_LANGUAGES, isLanguage } from './languages';
export type { Language } from './languages';

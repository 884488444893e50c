export { loadConfig, loadConfigOrExit, ConfigError, configSchema } from './config';
export type { Config } from './config';
export { CATALOGUE_API_LANGUAGES, CONTENT_LANGUAGES, isLanguage } from './languages';
export type { Language } from './languages';

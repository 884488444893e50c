export { loadConfig, loadConfigOrExit, ConfigError, configSchema, hashTagOf } from './config';
export type { Config, RedisAddress, RedisTopology } from './config';
export { CATALOGUE_API_LANGUAGES, CONTENT_LANGUAGES, isLanguage } from './languages';
export type { Language } from './languages';

export { loadConfig, loadConfigOrExit, ConfigError, configSchema } from './config';
export type { Config } from './config';
export { CATALOGUE_API_LANGUAGES, CONTENT_LANGUAGES, isLanguage } from './languages';
export type { Language } from './languages';
export { VARIABLES, SERVICES } from './variables';
export type { Reader, Variable, VariableName } from './variables';
export {
  chartConfigProperties,
  chartDefaultOf,
  chartVariables,
  defaultOf,
  renderConfigFiles,
  type ConfigFiles,
  type JsonProperty,
} from './document';

/**
 * Where the content stylesheet (`assets/ccs-content.css`, the default theme of the classes these
 * renderers write) lives and where it is served. Only names: reading and serving the file is the
 * HTTP layer's job (libs/http `contentStylesheet`).
 */
import { join } from 'node:path';

/** The URL path both APIs serve it at; the editor and design previews link it from white-label-api. */
export const CONTENT_STYLESHEET_PATH = '/content/v1/ccs-content.css';

/** The file, from src/ (tests) and dist/ (compiled) alike: both sit beside assets/. */
export const CONTENT_STYLESHEET_FILE = join(__dirname, '..', 'assets', 'ccs-content.css');

import { findBrowser, HOW_TO_GET_ONE } from './find-browser.mjs';

if (!findBrowser()) {
  console.error(HOW_TO_GET_ONE);
  process.exit(1);
}

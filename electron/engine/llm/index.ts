// Model providers (DESIGN §1 `llm/`): settings, keys, the AI SDK models built from them,
// connection tests and embeddings. Plain Node; Electron's keychain comes in as a SecretCipher.
export {
  ModelService,
  type EmbedResult,
  type ModelDescription,
  type ModelServiceDeps,
  type ResolvedModel,
} from './service';
export { SecretStore, type SecretCipher } from './secrets';
export { describeModelError, redact, type ModelErrorInfo, type ModelErrorKind } from './errors';
export { CONNECTION_TIMEOUT_MS, type RequestOptions } from './connection';
export { DEFAULT_BASE_URLS } from './config';

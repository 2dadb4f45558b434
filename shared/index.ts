// Shared: plain, runtime-agnostic definitions used by main, preload and renderer alike (no Node, no DOM).
export { Environment } from './environment';
export { DisplayName, OperatorId, OperatorView, Password, Role } from './operators';
export { Language } from './language';

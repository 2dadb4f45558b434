// Shared: plain, runtime-agnostic definitions used by main, preload and renderer alike (no Node, no DOM).
export { Environment } from './environment';
export {
  DisplayName,
  NewOperatorId,
  OperatorId,
  OperatorView,
  Password,
  RESERVED_OPERATOR_IDS,
  Role,
} from './operators';
export { Language } from './language';

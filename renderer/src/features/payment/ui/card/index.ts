/** The card capture form (spec §1) and its pure parts: fields, brands, errors. */
export {
  CardCapture,
  type CardCaptureError,
  type CardCaptureEvent,
  type CardCaptureHandle,
  type CardCaptureProps,
  type CheckoutResult,
  type CreateTokenResult,
} from './CardCapture';
export { brandName } from './brand';
export { describeCardError, errorMessageKey, EXPLAINED_CODES, type CardError } from './errors';

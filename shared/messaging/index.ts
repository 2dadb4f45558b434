// Messaging as every layer sees it: channels, destination checks and masks, the send request, delivery results and the training outbox.
export {
  MESSAGE_CHANNELS,
  MAX_DESTINATION_LENGTH,
  MAX_EMAIL_LENGTH,
  MessageChannel,
  MessageLanguage,
  checkDestination,
  checkEmail,
  checkPhone,
  maskDestination,
  type DestinationCheck,
} from './destination';
export {
  CardholderAnswer,
  CardholderState,
  ChannelAvailability,
  DELIVERY_FAILURE_CODES,
  DeliveryFailure,
  DeliveryFailureCode,
  DeliveryRecordView,
  DeliveryResult,
  MessageId,
  MessagingProvider,
  OutboxMessageView,
  PlayCardholderRequest,
  PlayCardholderResult,
  SendLinkRequest,
  type SendLinkRequestInput,
} from './views';
export { describeDeliveryFailure } from './failure-text';

// Training mode: the outbox where the trainee sees the messages the desk "sent" and plays the cardholder.
export { trainingKeys, useOutbox } from './api';
export { Outbox } from './ui/Outbox';

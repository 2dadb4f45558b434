// The agent's call: reservation lookup and summary, what is still owed, saved cards, payments in progress and unanswered, recovered notices, and the training outbox.

export const callEnUS = {
  'lookup.title': 'Find a reservation',
  'lookup.label': 'Confirmation number, guest name, phone or e-mail',
  'lookup.hint':
    "Also a payment's short reference (9D21‑F5A0) or part of a number; words in any order. Enter opens the first match.",
  'lookup.none': 'No reservation matches this search.',
  'lookup.results': 'Reservations found',
  'lookup.balance': 'balance',
  'reservation.close': 'Close reservation',
  'reservation.hotel': 'Hotel',
  'reservation.stay': 'Stay',
  'reservation.balance': 'Balance due',
  'reservation.phone': 'Phone',
  'reservation.email': 'E-mail',
  'reservation.missing': 'not on file',
  'reservation.payments': 'Payments on this reservation',
  'reservation.noPayments': 'No payments yet.',
  'reservation.when': 'When',
  'reservation.amount': 'Amount',
  'reservation.status': 'Status',
  'reservation.paymentId': 'Payment ID',
  'pending.title': 'A payment without an answer',
  'pending.help': 'The earlier payment of {amount} has no answer yet; it is being checked — do not charge again.',
  'pending.msi': 'monthly installments',
  'pending.started': 'Sent',
  'pending.checkAgain': 'Check again',
  'pending.stillUnanswered':
    'Still no answer for the payment of {amount}. Do not charge again; check again in a moment.',
  'pending.reconcileTitle': 'A payment never answered',
  'pending.reconcile':
    'The payment of {amount} sent {when} was never answered in 24 hours. A supervisor must find out with the service whether it was charged.',
  'pending.reconcileNoCharge':
    'No new charge on this reservation until a supervisor has resolved it: it may have been charged. Tell the guest: “We are confirming an earlier payment with the bank; we will call you back before charging anything.”',
  'pending.reconcileCallSupervisor':
    'Call a supervisor: they find out with the payment service what it did and resolve it here.',
  'pending.resolveChecked': 'I checked with the payment service: it was not charged',
  'pending.resolveNotCharged': 'Not charged: free the reservation',
  'pending.resolvePaymentId': 'It was charged as payment (ID from the service)',
  'pending.resolveCharged': 'Record that payment',
  'amount.notNumber': 'Enter the amount as a number, for example 1234.50.',
  'amount.tooSmall': 'The amount must be at least 0.01.',
  'amount.tooLarge': 'The amount can be at most 999,999.99.',
  'amount.cents': 'The amount can have at most two decimals (cents).',
  'saved.title': 'Saved cards',
  'saved.expiry': 'expires {month}/{year}',
  'saved.savedUntil': 'saved until {when}',
  'saved.expired': 'expired',
  'saved.chargeLabel': 'Charge {card}',
  'recovered.title': 'Completed after the restart',
  'recovered.payment': 'The payment of {amount} taken at {time} went through after the restart.',
  'recovered.paymentDeclined': 'The payment of {amount} taken at {time} was answered after the restart: {status}.',
  'recovered.refund': 'The refund of {amount} made at {time} went through after the restart.',
  'recovered.reservation': 'Reservation {reservation}',
  'recovered.acknowledge': 'I have seen these',
  'saved.confirm': 'Charge {amount} to {card}?',
  'saved.confirmCharge': 'Charge {amount}',
  'saved.confirmKeys': 'Enter charges the card; Esc goes back.',
  'wait.elapsed': 'Waiting {time}',
  'wait.linkValid': 'The link works for another {time}',
  'wait.linkExpired': 'The link has expired: abandon this payment and use another card.',
  'wait.tellGuest': 'Tell the guest:',
  'wait.say.link':
    '“We have sent you a link from your bank. Please open it on your phone and approve the payment; I will stay on the line.”',
  'wait.say.processing': '“Your bank is confirming the payment; it takes a moment. Please stay on the line.”',
  'wait.abandon': 'Abandon and use another card',
  'wait.abandonHelp':
    'The payment is left to expire unpaid: nothing is charged on it. Ask the guest to ignore the link already sent.',
  'abandoned.title': 'An abandoned payment was approved after all',
  'abandoned.processing':
    'The guest approved the payment of {amount} abandoned at {when}, with the link already sent: it is being charged now. Do not charge another card until it has its result.',
  'lateSuccess.title': 'An abandoned payment went through after all',
  'lateSuccess.text':
    'The guest approved the payment of {amount} on reservation {reservation} that you abandoned, with the link already sent: it was charged. Payment {replacement} replaced it, so the guest paid twice; a refund of {amount} is waiting in the supervisors’ queue. Tell the guest.',
  'lateSuccess.textNoReplacement':
    'The guest approved the payment of {amount} on reservation {reservation} that you abandoned, with the link already sent: it was charged. No other payment had replaced it: do not charge the guest again for it. A supervisor checks it in the queue.',
  'lateSuccess.dismiss': 'Understood',
  'abandoned.succeeded':
    'The guest approved the payment of {amount} abandoned at {when}, with the link already sent, and it went through. If another card was charged for it too, one of the two charges must be refunded: ask a supervisor.',
  'wait.abandonUnknown':
    'The payment service could not say whether this payment went through, so it is not abandoned and no other card can be charged yet. Try again in a minute. At the latest at {time} the link stops working and the payment expires unpaid; then another card can be charged.',
  'reservation.balanceBefore': '{amount} before the payments taken here',
  'outbox.title': 'Training outbox',
  'outbox.help':
    'In training, messages to guests are kept here instead of being sent. Play the cardholder: approve or decline the verification.',
  'outbox.empty': 'No messages yet.',
  'outbox.approve': 'Cardholder approves',
  'outbox.decline': 'Cardholder declines',
  'outbox.state.waiting': 'Waiting for the cardholder.',
  'outbox.state.approved': 'The cardholder approved.',
  'outbox.state.declined': 'The cardholder declined.',
  'outbox.state.link_closed': 'The link was already used or has expired.',
  'outbox.state.link_unknown': 'The link is no longer known to the training service.',
  'reservation.card': 'Card',
  'reservation.receipt': 'Receipt',
  'reservation.sendReceipt': 'Send a receipt',
  'reservation.attempt.unanswered': 'Unanswered — checking',
  'reservation.attempt.reconcile': 'Unanswered — a supervisor must check it',
  'pending.say':
    '“We are confirming your payment with the bank; you will not be charged twice. Please stay on the line a moment.”',
  'pending.whenSupervisor': 'If it still has no answer after {checks} checks or {minutes} minutes, call a supervisor.',
  'pending.callSupervisor':
    'Call a supervisor now: the payment has had no answer for {minutes} min. Do not charge again, not even with another card. If the guest cannot wait, confirm their phone number and tell them: “We will call you back as soon as the bank confirms; you will not be charged twice.”',
  'pending.callSupervisorChecks':
    'Call a supervisor now: the payment still has no answer after {checks} checks. Do not charge again, not even with another card. If the guest cannot wait, confirm their phone number and tell them: “We will call you back as soon as the bank confirms; you will not be charged twice.”',
  'wait.say.beforeLink':
    '“Your bank asks you to confirm this payment. I will send you a link: which phone or e-mail should I send it to?”',
  'wait.abandonHelpNoLink': 'The payment is left to expire unpaid: nothing is charged on it.',
  'outbox.state.settled':
    'This payment is already settled ({status}): there is nothing left for the cardholder to answer.',
  'owed.overpaid': 'Paid over',
  'owed.overpaidHelp':
    'The guest paid more than the balance. Do not charge again: ask a supervisor to refund the difference.',
  'owed.closed': 'Booking closed',
  'owed.nothing': 'nothing to charge (cancellation refunded)',
  'owed.closedHelp': 'A cancellation refund closed this booking: do not charge it again.',
} as const;

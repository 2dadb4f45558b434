/**
 * Main's refusals in English, one per error code main can emit (`error.<code>`; test/renderer/i18n/error-codes.test.ts
 * finds the codes in main's sources). Placeholders come from the error's params: amounts (`{amount}`, `{limit}`…) from
 * the `…Cents` params with their currency, `{minutes}`, `{role}`. A code whose params may be absent also has a
 * `.plain` sentence without them.
 */
export const errorsEnUS = {
  'error.unknown': 'The app could not do this (code {code}). Try again; if it happens again, tell IT.',
  'error.unexpected': 'Something went wrong in the app. Try again; if it happens again, tell IT.',

  // The IPC door itself.
  'error.forbidden_sender': 'This window may not use the app.',
  'error.unknown_channel': 'The app does not offer this.',
  'error.invalid_input': 'Something in the form is not valid. Check the fields and try again.',
  'error.invalid_input.field': '{field}: this value is not valid. Check it and try again.',
  'error.signed_out': 'Sign in to continue.',
  'error.forbidden': 'Your role does not allow this.',
  'error.internal': 'Something went wrong in the app. Try again; if it happens again, tell IT.',

  // Operators and the session.
  'error.already_exists': 'An account with this ID already exists. Choose another ID.',
  'error.not_found': 'What you asked for was not found: it may have been removed. Refresh and try again.',
  'error.last_admin':
    'This would leave the desk without an enabled administrator. Make another account an administrator first.',
  'error.setup_done': 'The first administrator already exists. Sign in instead.',
  'error.invalid_credentials': 'The operator ID or the password is not right.',
  'error.invalid_input.password': 'The password needs at least 12 characters, with both letters and digits.',
  'error.locked':
    'This account is locked after too many failed sign-ins. Try again in {minutes} min, or ask an administrator to reset the password.',
  'error.locked.plain': 'This setting is managed by IT and cannot be changed here.',
  'error.disabled': 'This account is disabled. Ask an administrator.',
  'error.not_signed_in': 'Nobody is signed in on this desk. Sign in to continue.',
  'error.session_locked': 'The desk is locked. Sign in again to continue.',
  'error.session_active': 'Someone else signed in on this desk meanwhile. Sign out first.',
  'error.session_active.signedIn': '{signedIn} is signed in on this desk. Sign out first.',
  'error.session_active.lockedFor':
    'The desk is locked for {lockedFor}. To use it yourself, choose "Sign in as someone else" (their session ends; the card details were already erased).',
  'error.not_locked': 'The session is open: that operator signs out instead.',
  'error.session_elsewhere': 'You are signed in at another desk. Sign out there, or end that session and sign in here.',
  'error.session_elsewhere.deskId':
    'You are signed in at desk {deskId} since {sinceAt}. Sign out there, or end that session and sign in here.',
  'error.session_ended_elsewhere':
    'Your session on this desk was ended from another desk. Sign in again to continue here.',
  'error.session_ended_elsewhere.deskId':
    'Your session on this desk was ended when you signed in at desk {deskId} ({sinceAt}). Sign in again to continue here.',

  // Updates.
  'error.payment_in_progress':
    'A payment of this desk is still in progress: the app cannot restart now. Try again at the end of the call.',
  'error.not_ready': 'There is no downloaded update to install yet.',

  // Refunds.
  'error.refund_limit':
    'This refund is {amount}; as {role} you may refund up to {limit} at a time. An administrator must make it.',
  'error.refund_limit.plain': 'This refund is above your limit for one refund. An administrator must make it.',
  'error.refund_daily_limit':
    'This refund is {amount}; as {role} you may refund up to {limit} a day and have refunded {refunded} today ({left} left). An administrator must make it.',
  'error.refund_daily_limit.plain':
    'This refund is above what you may still refund today. An administrator must make it.',
  'error.refund_exceeds_remaining': 'Only {left} is left to refund on this payment.',
  'error.refund_exceeds_remaining.plain': 'The refund is more than what is left to refund on this payment.',
  'error.payment_not_refundable': 'Only a payment that went through can be refunded.',
  'error.refund_amount_unknown':
    'The service lists a refund of this payment without its amount, so what is left to refund cannot be known. Open the payment again later before refunding.',
  'error.refund_amount_changed':
    'You confirmed a refund of {expected}, but what is left to refund on this payment is now {amount}: another refund was made meanwhile. Nothing was refunded. Read the amount again and confirm it.',
  'error.refund_amount_changed.plain':
    'What is left to refund on this payment changed since you read it: another refund was made meanwhile. Nothing was refunded. Read the amount again and confirm it.',
  'error.request_not_found': 'This refund request no longer exists.',
  'error.request_closed': 'This refund request was already approved or rejected.',
  'error.request_closed.approvedBy': 'This refund request was already approved by {approvedBy} on {approvedAt}.',
  'error.request_closed.rejectedBy': 'This refund request was already rejected by {rejectedBy} on {rejectedAt}.',
  'error.request_changed': 'This refund request changed since you opened it. Open it again.',
  'error.approver_not_allowed': 'This supervisor may not approve this refund.',
  'error.override_paused':
    'Manager override with this supervisor’s password is paused for {minutes} min, at every desk, after too many wrong passwords in a row. Another supervisor can sign, or the request can be approved from the Approvals queue meanwhile.',
  'error.override_paused.plain':
    'Manager override with this supervisor’s password is paused for a few minutes, at every desk, after too many wrong passwords in a row. Another supervisor can sign, or the request can be approved from the Approvals queue meanwhile.',
  'error.same_person': 'A refund cannot be approved by the person who asked for it.',

  // Settings, the secret store, storage and the desk's identity: the agent tells IT.
  'error.invalid_settings': 'A setting has a value that is not allowed. Tell IT.',
  'error.managed_file_invalid': 'The settings file IT manages on this desk is damaged. Tell IT.',
  'error.managed_file_unreadable': 'The settings file IT manages on this desk cannot be read. Tell IT.',
  'error.user_file_invalid': 'This desk’s settings file is damaged. Tell IT.',
  'error.user_file_unreadable': 'This desk’s settings file cannot be read. Tell IT.',
  'error.encryption_unavailable': 'The computer’s secure storage cannot be used right now. Tell IT.',
  'error.insecure_backend': 'This computer has no secure storage for the app’s secrets. Tell IT.',
  'error.encryption_failed': 'The computer’s secure storage refused to keep a secret. Tell IT.',
  'error.needs_reprovisioning':
    'The app’s stored secrets can no longer be read on this computer: IT must set them up again.',
  'error.data_folder_in_use':
    'This desk’s records are being moved into the center by IT, or the app is already open on this computer. Wait for IT to say the move is done, then start the app again.',
  'error.store_unreadable': 'The app’s secret store cannot be read. Tell IT.',
  'error.invalid_value': 'The value is empty or too long.',
  'error.center_unavailable':
    'The center’s database cannot be reached right now. Wait a moment and try again; if it goes on, tell IT.',
  'error.center_tls_failed': 'The secure connection to the center’s database failed. Tell IT.',
  'error.center_login_refused': 'The center’s database refused this desk. Tell IT.',
  'error.center_not_ready': 'The center’s database is not set up for this app. Tell IT.',
  'error.center_permission_denied': 'The center’s database does not allow this desk to do this. Tell IT.',
  'error.store_from_newer_app': 'The data was written by a newer version of the app. Install the latest version.',
  'error.store_migration_failed': 'The app could not update its data; nothing was changed. Tell IT.',
  'error.desk_id_damaged': 'This desk’s identity file is damaged. Tell IT.',
  'error.desk_id_in_use':
    'This desk’s ID is used on the center by another computer: this desk’s desk.json was copied. Tell IT: on the computer that is the copy, delete desk.json from the app’s data folder and start the app again, so that it makes an ID of its own.',
  'error.desk_id_in_use.deskId':
    'This desk’s ID {deskId} is used on the center by another computer ({host}): this desk’s desk.json was copied. Tell IT: on the computer that is the copy, delete desk.json from the app’s data folder and start the app again, so that it makes an ID of its own.',
  'error.desk_credential_mismatch':
    'This desk’s sign-in to the center belongs to another desk. Tell IT: each desk needs its own center credential (docs/center/add-desk.sql).',
  'error.desk_credential_mismatch.deskId':
    'This desk ({deskId}) signs in to the center with a credential that belongs to another desk. Tell IT: each desk needs its own center credential (docs/center/add-desk.sql).',

  // Messaging.
  'error.training_only': 'This is only available in training.',
  'error.unknown_message': 'This message is no longer in the outbox.',
  'error.invalid_config': 'Messaging is not set up correctly on this desk. Tell IT.',
  'error.invalid_request': 'The message could not be sent as asked. Check the destination and try again.',
  'error.simulator_unreachable': 'The training simulator cannot be reached. Restart the app.',

  // Reservations.
  'error.invalid_query': 'Type a confirmation number, a guest’s name or a phone number.',
  'error.configuration': 'The reservation system is not set up correctly on this desk. Tell IT.',
  'error.unreachable': 'The reservation system cannot be reached. Check the network and try again.',
  'error.timeout': 'The service did not answer in time. Try again.',
  'error.unauthorized': 'The reservation system refused this desk’s credentials. Tell IT.',
  'error.unavailable': 'The service is not available right now. Try again in a moment.',
  'error.rejected': 'The reservation system refused the request. Tell IT if it happens again.',
  'error.bad_response': 'The reservation system answered in a form this app does not understand. Tell IT.',
  'error.storage': 'The reservations file could not be read or written. Tell IT.',
  'error.closed': 'The reservation system is closing. Try again.',

  // Payments: the engine's own refusals.
  'error.missing_secret': 'No client secret is set up on this desk. Ask IT to set it up.',
  'error.network_error': 'The payment service cannot be reached. Check the network and try again.',
  'error.unexpected_response':
    'The payment service answered in a form this app does not understand. Try again; if it happens again, tell IT.',
  'error.attempt_not_found': 'There is no payment attempt with this ID on this desk.',
  'error.invalid_state': 'The payment is no longer in a state that allows this. Look at its status.',
  'error.amount_changed':
    'The payment service now holds another amount for this payment than the one on your screen. Check the amount with the guest before confirming.',
  'error.payment_not_on_desk': 'This payment was not taken on this desk: it cannot be abandoned here.',
  'error.abandon_outcome_unknown':
    'The payment service could not say whether this payment went through, so it is not abandoned and no new charge can be made yet. Try again in a moment.',
  'error.payment_already_succeeded':
    'This payment of {amount} went through: it cannot be abandoned. Do not charge again.',
  'error.payment_already_succeeded.plain': 'This payment went through: it cannot be abandoned. Do not charge again.',
  'error.payment_being_charged':
    'The card is being charged {amount} right now: wait for the result before using another card.',
  'error.payment_being_charged.plain':
    'The card is being charged right now: wait for the result before using another card.',
  'error.earlier_refund_completed':
    'An earlier refund of this payment had not been answered; it was sent again and is now answered. Check what is left before refunding again.',
  'error.refund_in_flight':
    'Another refund of this payment is being sent right now, on this desk or another one. Wait for its answer, then check what is left before refunding again.',
  'error.payment_unanswered':
    'The earlier payment of {amount} for this reservation has no answer yet; it is being checked. Wait for it before charging again.',
  'error.payment_unanswered.plain':
    'An earlier payment for this reservation has no answer yet. Wait for it before charging again.',
  'error.charges_not_acknowledged':
    'This reservation was already charged {amount} today, and that charge was not on your screen. Check the charges shown now with the guest, then charge only if more is owed.',
  'error.charges_not_acknowledged.plain':
    'This reservation was already charged today, and that charge was not on your screen. Check the charges shown now with the guest, then charge only if more is owed.',
  'error.refunds_not_acknowledged':
    'This payment was already refunded {amount}, and that refund was not on your screen. Check the refunds shown now before refunding again.',
  'error.refunds_not_acknowledged.plain':
    'This payment was already refunded, and that refund was not on your screen. Check the refunds shown now before refunding again.',
  'error.reservation_payment_in_progress':
    'The payment of {amount} on this reservation is still in progress: wait for its result, or abandon it, before another charge.',
  'error.reservation_payment_in_progress.plain':
    'A payment on this reservation is still in progress: wait for its result, or abandon it, before another charge.',
  'error.currency_not_reservation':
    'Currency: this reservation is in {reservationCurrency}, and a charge must be in the reservation’s currency, not {currency}. Nothing was charged. Charge the amount in {reservationCurrency}.',
  'error.currency_not_reservation.plain':
    'Currency: a charge must be in the reservation’s currency. Nothing was charged. Open the reservation again and charge in its currency.',
  'error.reservation_unknown':
    'Reservation: the reservation system does not know this reservation number, and a charge goes only on a reservation it knows. Nothing was charged. Look the reservation up again and charge it from there.',
  'error.over_balance_not_confirmed':
    'Amount: {amount} is more than the {owed} this reservation still owes, and a charge above what is owed needs your confirmation of both amounts. Nothing was charged. Check the amount with the guest; to charge it anyway, tick the confirmation under the amount and charge again.',
  'error.over_balance_not_confirmed.plain':
    'Amount: the charge is more than what this reservation still owes now. Nothing was charged. Check the amount shown now with the guest; to charge more, tick the confirmation under the amount and charge again.',
  'error.card_not_offered':
    'This card cannot be charged again: it was declined, the guest did not agree to keep it, or it was kept for another reservation. Key the card again.',
  'error.receipt_not_available': 'Only a payment that went through has a receipt.',
  'error.operation_changed': 'This operation was already started with different details. Start a new one.',
  'error.payment_needs_reconciliation':
    'An earlier payment of {amount} for this reservation was never answered and may have been charged. No new charge until a supervisor has found out with the service and resolved it.',
  'error.payment_needs_reconciliation.plain':
    'An earlier payment for this reservation was never answered and may have been charged. No new charge until a supervisor has found out with the service and resolved it.',
  'error.attempt_not_to_reconcile': 'This payment attempt is not waiting for a supervisor: read the reservation again.',
  'error.payment_does_not_match':
    'That payment is not the one this attempt would have made (another reservation, amount, currency or card). Check the payment ID with the service.',
  'error.operation_needs_reconciliation':
    'This operation was never answered and a supervisor must check it. Do not start it again.',
  'error.operation_closed': 'This operation was closed after a restart. Start a new one.',
  'error.operation_too_old': 'This operation is more than 24 hours old; a supervisor must check it.',
  'error.payment_abandoned': 'This payment was abandoned: it is left to expire. Take a new payment instead.',
  'error.payment_change_in_progress':
    '{operatorId} is changing this payment right now (on desk {deskId}). Wait for it to finish, open the payment again, then try again.',
  'error.payment_change_in_progress.plain':
    'Someone is changing this payment right now, at this desk or another one. Wait for it to finish, open the payment again, then try again.',
  'error.confirmed_amount_differs':
    'The payment service confirmed this payment for {charged}, not the {expected} on your screen. Tell the guest; when more was charged, a refund of the difference is waiting in the supervisors’ queue.',
  'error.confirmed_amount_differs.plain':
    'The payment service confirmed this payment for another amount than the one on your screen. Tell the guest and a supervisor.',

  // Payments: the service's codes.
  // A code of the service this app does not know: main sends it as `serviceCode` (shared/ipc/errors.ts).
  'error.service_refused':
    'The payment service refused the request ({serviceCode}). Try again; if it happens again, tell IT.',
  'error.service_refused.plain': 'The payment service refused the request. Try again; if it happens again, tell IT.',
  'error.internal_error': 'The payment service had a problem. Try again in a moment.',
  'error.invalid_token':
    'The payment service did not accept the app’s access. Try again; if it happens again, tell IT.',
  'error.invalid_client': 'The payment service refused this desk’s credentials. Tell IT.',
  'error.unsupported_grant_type': 'The payment service refused the app’s sign-in. Tell IT.',
  'error.validation_error': 'The payment service refused the request as not valid. Check the details and try again.',
  'error.idempotency_conflict': 'This operation was already sent with different details. Start it again.',
  'error.idempotency_in_progress': 'The payment service is still working on this request. Wait a moment.',
  'error.method_expired': 'This saved card can no longer be used. Ask the guest for a card.',
  'error.invalid_installments':
    'This monthly-installment plan is not offered for this card. Choose another plan or pay in one go.',
  'error.installments_unavailable':
    'Monthly installments are not offered for this card or amount. Charge it in one go, or ask for another card.',
  'error.rate_limited': 'The payment service is busy. Try again in a moment.',

  // What main answers about an attempt, worded here (main's view carries an English message too).
  'pending.refused': 'The service refused the payment of {amount}: nothing was charged.',

  // Where to send the 3DS link, checked before anything is sent (shared/messaging/destination).
  'destination.phone_missing': 'Enter the guest’s mobile number.',
  'destination.phone_characters':
    'A phone number can have only digits, spaces, dashes, dots and parentheses after the +.',
  'destination.phone_no_country':
    'Enter the number with its country code, starting with + (for example +52 55 1234 5678).',
  'destination.phone_invalid': 'This is not a valid phone number: check the country code and the number of digits.',
  'destination.phone_landline':
    'This is a landline or service number, which cannot receive messages: ask the guest for a mobile number.',
  'destination.email_missing': 'Enter the guest’s e-mail address.',
  'destination.email_too_long': 'An e-mail address can have at most {max} characters.',
  'destination.email_invalid':
    'This is not a valid e-mail address: check it with the guest (for example maria@example.com).',

  // The app's name: the window title and the headers.
  'app.title': 'Card Payments Desk',

  // The app's own check of a form (no browser bubbles): the field named by its label.
  'form.required': '{field}: this field is required.',
  'form.tooShort': '{field}: type at least {min} characters.',

  // The call's compact header (guest, confirmation number, amount owed), named for screen readers.
  'reservation.bar': 'The call',
  // What is still owed after this desk's payments (main's balance), in the call's header.
  'reservation.owed': 'Still owed',
  'reservation.inProgress': 'Being charged now',
  'reservation.owedAfter': 'Still owed after it',
  // A day typed in the desk's format (ui/DateField), never the browser's date picker.
  'date.pattern': 'mm/dd/yyyy',
  'date.invalid': '{field}: type the day as {pattern}, for example 03/14/2025.',
  // Search: a short reference that is not one.
  'error.invalid_input.shortReference':
    'Short reference: type its 8 characters as the receipt shows them, for example 9D21-F5A0 (the dash may be left out).',
  // Start-up: a call made before the desk is ready.
  'error.starting': 'The desk is still starting. Wait a moment; it opens by itself when it is ready.',

  // Refusals as codes with params: what main's English said, now said here from the params.
  'error.not_locked.signedIn':
    '{signedIn} is signed in and the desk is not locked: they sign out from the workspace instead.',
  'error.forbidden.role': 'Your role ({role}) does not allow this.',
  'error.timeout.seconds':
    'The reservation system did not answer within {seconds} s. Try again in a moment; if it keeps happening, tell IT.',
} as const;

// The agent's workspace: find the reservation, take the payment, follow it to the result — all from the keyboard.
import { useEffect, useRef, type JSX } from 'react';
import type { OperatorView } from '../../../shared/operators';
import { messageOf } from '../api/client';
import { useAppInfo, useOverview, usePaymentEvents, useReservation } from '../api/queries';
import { useCall } from '../call/store';
import { useI18n } from '../i18n';
import { PaymentFlow } from '../payment/PaymentFlow';
import { Outbox } from '../training/Outbox';
import { LanguageSwitch } from './LanguageSwitch';
import { Lookup } from './Lookup';
import { ReservationSummary } from './ReservationSummary';
import './workspace.css';

interface Props {
  operator: OperatorView;
  onSignOut: () => void;
}

export function Workspace({ operator, onSignOut }: Props): JSX.Element {
  const { t } = useI18n();
  const info = useAppInfo();
  const reservationId = useCall((state) => state.reservationId);
  const openReservation = useCall((state) => state.openReservation);
  const closeReservation = useCall((state) => state.closeReservation);
  const reservation = useReservation(reservationId);
  const overview = useOverview(reservationId);
  const lookupRef = useRef<HTMLInputElement>(null);
  usePaymentEvents();

  // F2: back to the search from anywhere. Esc in the search closes the reservation.
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      if (event.key === 'F2') {
        event.preventDefault();
        lookupRef.current?.focus();
        lookupRef.current?.select();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const canTakePayments = operator.role === 'agent' || operator.role === 'supervisor';
  return (
    <div className="workspace">
      <header className="topbar">
        <h1 className="topbar__title">Card Payments Desk</h1>
        {info.data?.environment === 'training' && <span className="badge badge--training">{t('ws.training')}</span>}
        {info.data?.environment === 'sandbox' && <span className="badge badge--sandbox">{t('ws.sandbox')}</span>}
        <span className="topbar__spacer" />
        <span>{t('ws.signedInAs', { name: operator.displayName, role: t(`role.${operator.role}`) })}</span>
        <LanguageSwitch locked={info.data?.languageLocked ?? false} />
        <button type="button" onClick={onSignOut}>
          {t('ws.signOut')}
        </button>
      </header>
      <p className="shortcuts" aria-label={t('ws.shortcuts')}>
        <kbd>F2</kbd> {t('ws.keySearch')} · <kbd>Enter</kbd> {t('ws.keyOpen')} · <kbd>Tab</kbd> {t('ws.keyNext')}
      </p>
      <main className="columns">
        <div className="stack">
          <Lookup inputRef={lookupRef} onOpen={(found) => openReservation(found.confirmationNumber)} />
          {info.data?.environment === 'training' && <Outbox />}
        </div>
        <div className="stack">
          {reservationId === undefined && <p className="muted">{t('ws.empty')}</p>}
          {reservation.isError && (
            <p className="error" role="alert">
              {messageOf(reservation.error)}
            </p>
          )}
          {reservation.data && (
            <>
              <ReservationSummary reservation={reservation.data} payments={overview.data?.payments ?? []} onClose={closeReservation} />
              {canTakePayments ? (
                <PaymentFlow key={reservation.data.confirmationNumber} reservation={reservation.data} methods={overview.data?.methods ?? []} />
              ) : (
                <p className="muted">{t('ws.adminNoPayments')}</p>
              )}
            </>
          )}
          {reservationId !== undefined && reservation.isSuccess && reservation.data === undefined && <p role="status">{t('ws.notFound')}</p>}
        </div>
      </main>
    </div>
  );
}

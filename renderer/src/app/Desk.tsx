// The desk after sign-in: the top bar, the sections the operator's role opens (agents: the workspace alone), and the
// agent's workspace — find the reservation, take the payment, follow it to the result — all from the keyboard.
import { lazy, Suspense, useEffect, useRef, useState, type JSX, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';
import type { OperatorView } from '../../../shared/operators';
import { api, messageOf } from '../bridge/client';
import { useAppInfo, useOverview, usePaymentEvents, useReservation } from '../api/queries';
import { useCall } from '../features/call/store';
import { useActivityReport } from '../features/session/activity';
import { useI18n, type PlainKey } from '../i18n';
import { PaymentFlow } from '../features/payment/ui/PaymentFlow';
import { Outbox } from '../features/training/ui/Outbox';
import { UpdateBanner } from '../features/updates/ui/UpdateBanner';
import { LanguageSwitch } from './LanguageSwitch';
import { Lookup } from '../features/call/ui/Lookup';
import { ReservationSummary } from '../features/call/ui/ReservationSummary';
import './workspace.css';

// The supervisor's and admin's screens are loaded when first opened: agents never download them.
const PaymentsDesk = lazy(() => import('../features/payments/ui/PaymentsDesk').then((m) => ({ default: m.PaymentsDesk })));
const Approvals = lazy(() => import('../features/refunds/ui/Approvals').then((m) => ({ default: m.Approvals })));
const AuditTrail = lazy(() => import('../features/audit/ui/AuditTrail').then((m) => ({ default: m.AuditTrail })));
const EndOfDay = lazy(() => import('../features/reports/ui/EndOfDay').then((m) => ({ default: m.EndOfDay })));
const Accounts = lazy(() => import('../features/admin/ui/Accounts').then((m) => ({ default: m.Accounts })));
const ImportReservations = lazy(() => import('../features/admin/ui/ImportReservations').then((m) => ({ default: m.ImportReservations })));

export type Section = 'workspace' | 'payments' | 'approvals' | 'audit' | 'report' | 'accounts' | 'import';

const LABELS: Record<Section, PlainKey> = {
  workspace: 'nav.workspace',
  payments: 'nav.payments',
  approvals: 'nav.approvals',
  audit: 'nav.audit',
  report: 'nav.report',
  accounts: 'nav.accounts',
  import: 'nav.import',
};

/** The sections a role opens, in order; agents have the workspace alone. */
export function sectionsFor(role: OperatorView['role']): Section[] {
  if (role === 'agent') return ['workspace'];
  const supervisor: Section[] = ['workspace', 'payments', 'approvals', 'audit', 'report'];
  return role === 'admin' ? [...supervisor, 'accounts', 'import'] : supervisor;
}

interface Props {
  operator: OperatorView;
  onSignOut: () => void;
}

export function Workspace({ operator, onSignOut }: Props): JSX.Element {
  const { t } = useI18n();
  const info = useAppInfo();
  const lookupRef = useRef<HTMLInputElement>(null);
  const sections = sectionsFor(operator.role);
  const [section, setSection] = useState<Section>('workspace');
  const tabRefs = useRef(new Map<Section, HTMLButtonElement>());
  usePaymentEvents();
  useActivityReport();

  // F2: back to the search from anywhere (from another section too).
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      if (event.key === 'F2') {
        event.preventDefault();
        const focusLookup = (): void => {
          lookupRef.current?.focus();
          lookupRef.current?.select();
        };
        // On the workspace the search takes the very next keystroke; from another section, it mounts first.
        if (lookupRef.current) focusLookup();
        else {
          setSection('workspace');
          requestAnimationFrame(focusLookup);
        }
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  /** Arrow keys, Home and End move between the tabs (WAI-ARIA tabs pattern, automatic activation). */
  function onTabKey(event: ReactKeyboardEvent<HTMLButtonElement>): void {
    const index = sections.indexOf(section);
    const next =
      event.key === 'ArrowRight' ? (index + 1) % sections.length
      : event.key === 'ArrowLeft' ? (index - 1 + sections.length) % sections.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? sections.length - 1
      : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const target = sections[next] ?? 'workspace';
    setSection(target);
    tabRefs.current.get(target)?.focus();
  }

  function lock(): void {
    // Main locks the session and sends `session:locked`: the shell then shows the lock screen.
    void api?.session.lock({});
  }

  return (
    <div className="workspace">
      <header className="topbar">
        <h1 className="topbar__title">Card Payments Desk</h1>
        {info.data?.environment === 'training' && <span className="badge badge--training">{t('ws.training')}</span>}
        {info.data?.environment === 'sandbox' && <span className="badge badge--sandbox">{t('ws.sandbox')}</span>}
        <span className="topbar__spacer" />
        <span>{t('ws.signedInAs', { name: operator.displayName, role: t(`role.${operator.role}`) })}</span>
        <LanguageSwitch locked={info.data?.languageLocked ?? false} />
        <button type="button" onClick={lock}>
          {t('ws.lock')}
        </button>
        <button type="button" onClick={onSignOut}>
          {t('ws.signOut')}
        </button>
      </header>
      <UpdateBanner />
      {sections.length > 1 && (
        <nav className="sections" aria-label={t('nav.label')}>
          <div role="tablist" aria-label={t('nav.label')} className="sections__list">
            {sections.map((name) => (
              <button
                key={name}
                ref={(element) => {
                  if (element) tabRefs.current.set(name, element);
                  else tabRefs.current.delete(name);
                }}
                type="button"
                role="tab"
                id={`tab-${name}`}
                aria-selected={section === name}
                aria-controls={`panel-${name}`}
                tabIndex={section === name ? 0 : -1}
                className="sections__tab"
                onClick={() => setSection(name)}
                onKeyDown={onTabKey}
              >
                {t(LABELS[name])}
              </button>
            ))}
          </div>
        </nav>
      )}
      {section === 'workspace' ? (
        <div id="panel-workspace" {...(sections.length > 1 ? { role: 'tabpanel', 'aria-labelledby': 'tab-workspace' } : {})}>
          <AgentDesk operator={operator} lookupRef={lookupRef} />
        </div>
      ) : (
        <main id={`panel-${section}`} role="tabpanel" aria-labelledby={`tab-${section}`} className="section">
          <Suspense fallback={<p aria-busy="true">{t('common.loading')}</p>}>
            {section === 'payments' && <PaymentsDesk role={operator.role} />}
            {section === 'approvals' && <Approvals />}
            {section === 'audit' && <AuditTrail />}
            {section === 'report' && <EndOfDay />}
            {section === 'accounts' && <Accounts self={operator.id} />}
            {section === 'import' && <ImportReservations />}
          </Suspense>
        </main>
      )}
    </div>
  );
}

/** The agent's workspace: the lookup on the left, the reservation and its payment on the right. */
function AgentDesk({ operator, lookupRef }: { operator: OperatorView; lookupRef: RefObject<HTMLInputElement | null> }): JSX.Element {
  const { t } = useI18n();
  const info = useAppInfo();
  const reservationId = useCall((state) => state.reservationId);
  const openReservation = useCall((state) => state.openReservation);
  const closeReservation = useCall((state) => state.closeReservation);
  const reservation = useReservation(reservationId);
  const overview = useOverview(reservationId);

  const canTakePayments = operator.role === 'agent' || operator.role === 'supervisor';
  return (
    <>
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
              <ReservationSummary
                reservation={reservation.data}
                payments={overview.data?.payments ?? []}
                onClose={closeReservation}
                canRequestRefunds={operator.role === 'agent'}
              />
              {canTakePayments ? (
                <PaymentFlow
                  key={reservation.data.confirmationNumber}
                  reservation={reservation.data}
                  methods={overview.data?.methods ?? []}
                  pendingPayments={overview.data?.pendingPayments ?? []}
                />
              ) : (
                <p className="muted">{t('ws.adminNoPayments')}</p>
              )}
            </>
          )}
          {reservationId !== undefined && reservation.isSuccess && reservation.data === undefined && <p role="status">{t('ws.notFound')}</p>}
        </div>
      </main>
    </>
  );
}

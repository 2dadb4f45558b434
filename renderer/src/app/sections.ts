// Role → sections: which parts of the desk an operator's role opens, in order, and their tab labels.
import type { OperatorView } from '../../../shared/operators';
import type { PlainKey } from '../i18n';

export type Section = 'workspace' | 'payments' | 'approvals' | 'audit' | 'report' | 'accounts' | 'import';

export const SECTION_LABELS: Readonly<Record<Section, PlainKey>> = {
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

/** Agents and supervisors take payments; admins do not. */
export const takesPayments = (role: OperatorView['role']): boolean => role === 'agent' || role === 'supervisor';

/** Agents ask a supervisor for refunds from the reservation; supervisors refund from the payments section. */
/** Who resolves a payment attempt never answered in the service's window (main checks it too). */
export const resolvesAttempts = (role: OperatorView['role']): boolean => role === 'supervisor' || role === 'admin';
export const requestsRefunds = (role: OperatorView['role']): boolean => role === 'agent';

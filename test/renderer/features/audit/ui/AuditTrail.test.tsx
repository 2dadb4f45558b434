// @vitest-environment happy-dom
// The trail as the center wrote it: a row naming an operator who had no session at the desk that wrote it says so
// beside who, and a row kept on the desk while the center was down shows when it happened there.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditRowView } from '../../../../../shared/desk';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { AuditTrail } = await import('../../../../../renderer/src/features/audit/ui/AuditTrail');

const row = (id: number, over: Partial<AuditRowView>): AuditRowView => ({
  id,
  deskId: '3f2a9c1e-0000-4000-8000-000000000001',
  seq: id,
  at: '2026-12-02T15:00:00.000Z',
  actor: 'sam',
  actorName: 'Sam',
  action: 'refund.approve',
  outcome: 'ok',
  details: {},
  writtenBy: 'center',
  actorSession: 'open',
  ...over,
});

describe('the audit trail of the center', () => {
  it('marks the row whose operator had no session at that desk, and only it; the app’s own rows are not marked', async () => {
    main.reset();
    main.answer('audit:list', () => ({
      rows: [
        row(3, { actorSession: 'none' }),
        row(2, {}),
        row(1, { actor: 'system', actorName: undefined, action: 'payment.result', actorSession: 'none' }),
      ],
    }));
    renderWithData('es-MX', <AuditTrail />);
    const marks = await screen.findAllByText('Sin sesión en ese escritorio');
    expect(marks).toHaveLength(1);
    const marked = marks[0]!.closest('tr')!;
    expect(within(marked).getByText('Sam')).toBeTruthy();
    expect(marks[0]!.getAttribute('title')).toContain('no tenía una sesión abierta');
  });

  it('shows when a row kept on the desk happened there', async () => {
    main.reset();
    main.answer('audit:list', () => ({ rows: [row(1, { deskAt: '2026-12-02T14:00:00.000Z' })] }));
    renderWithData('es-MX', <AuditTrail />);
    expect((await screen.findByText(/^En el escritorio: /)).textContent).not.toBe('En el escritorio: ');
  });
});

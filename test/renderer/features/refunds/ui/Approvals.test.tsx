// @vitest-environment happy-dom
// The supervisor's approval queue in a DOM, against a fake of main (support/bridge.ts): the queue is the center's, so
// each request says the desk it was asked at; a request of before desks had ids says none. Approving is seeing: each
// request shows its money, guest, reservation, card and who asked; approving takes one step naming the amount.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RefundQueueItem } from '../../../../../shared/ipc/views';
import { installFakeMain } from '../../../support/bridge';
import { renderWithData } from '../../../support/render';

const main = installFakeMain();
const { Approvals } = await import('../../../../../renderer/src/features/refunds/ui/Approvals');

const request = (id: string, deskId?: string): RefundQueueItem => ({
  id,
  paymentId: `pay_${id.slice(-1).repeat(32)}`,
  amountCents: 20000,
  refundCents: 20000,
  currency: 'usd',
  reason: 'cancellation',
  status: 'pending',
  requestedBy: 'agent1',
  requestedAt: '2026-11-23T11:00:00Z',
  override: false,
  ...(deskId === undefined ? {} : { deskId }),
});

describe('Approvals', () => {
  it('says why the app put a request in the queue: a late success with the payment that replaced it, or a confirmation charged over what the agent saw', async () => {
    main.reset();
    const late = {
      ...request('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4a'),
      reason: 'duplicate' as const,
      origin: 'late_success' as const,
      linkedPaymentId: `pay_${'c'.repeat(24)}9f3a1b2c`,
    };
    const differs = {
      ...request('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4b'),
      reason: 'requested_by_customer' as const,
      origin: 'confirmed_amount_differs' as const,
    };
    main.answer('refunds:queue', () => ({ requests: [late, differs] }));
    renderWithData('es-MX', <Approvals />);
    const notes = await screen.findAllByRole('note');
    expect(notes.map((n) => n.textContent)).toEqual([
      expect.stringContaining('9F3A-1B2C'),
      expect.stringContaining('la diferencia'),
    ]);
    cleanup();
    renderWithData('en-US', <Approvals />);
    expect((await screen.findAllByRole('note')).map((n) => n.textContent)).toEqual([
      expect.stringContaining('charged twice'),
      expect.stringContaining('the difference'),
    ]);
  });

  it('names the desk each request was asked at', async () => {
    main.reset();
    main.answer('refunds:queue', () => ({
      requests: [
        request('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4a', '3f1c2a4e-7b1d-4c8e-9a2f-5d6e7f809a1b'),
        request('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4b'),
      ],
    }));
    renderWithData('es-MX', <Approvals />);
    const rows = await screen.findAllByRole('row');
    const [first, second] = rows.slice(1);
    const desk = within(first as HTMLElement).getByText('en el escritorio 3f1c2a4e');
    expect(desk.getAttribute('title')).toBe('3f1c2a4e-7b1d-4c8e-9a2f-5d6e7f809a1b');
    expect(within(second as HTMLElement).queryByText(/en el escritorio/)).toBeNull();
  });

  it('watches the queue while open and reads it again when main pushes a change or a resync, never on a timer', async () => {
    main.reset();
    let served = [request('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4a')];
    main.answer('refunds:queue', () => ({ requests: served }));
    main.answer('live:watch', () => ({ state: 'live' }));
    renderWithData('en-US', <Approvals />);
    await screen.findAllByRole('row');
    await waitFor(() =>
      expect(main.sent.filter((s) => s.channel === 'live:watch').at(-1)?.input).toEqual({
        queue: true,
        reservations: [],
      }),
    );
    const reads = (): number => main.sent.filter((s) => s.channel === 'refunds:queue').length;
    const before = reads();

    // Another desk asked for a refund: main pushes it, and the queue shows it.
    served = [...served, request('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4b')];
    main.emit('refunds:changed', {
      requestId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4b',
      paymentId: `pay_${'b'.repeat(32)}`,
    });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    expect(reads()).toBe(before + 1);
    main.emit('live:resync', {});
    await waitFor(() => expect(reads()).toBe(before + 2));
    // Nothing else reads it: no polling.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reads()).toBe(before + 2);

    // A burst of changes (requests asked, approved and settled at other desks at once): one read shows them all, and
    // nothing is left unread after it.
    served = [...served, request('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4c')];
    for (let i = 0; i < 10; i++)
      main.emit('refunds:changed', {
        requestId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4c',
        paymentId: `pay_${'c'.repeat(32)}`,
      });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(reads()).toBe(before + 3);

    // Closed: the window watches nothing any more.
    cleanup();
    await waitFor(() =>
      expect(main.sent.filter((s) => s.channel === 'live:watch').at(-1)?.input).toEqual({
        queue: false,
        reservations: [],
      }),
    );
  });

  // A change pushed while a decision is on its way is read once the decision's answer is in, never skipped: a change
  // read 300 ms later (coalesced) while the decision is sent would be dropped, the decision then fails (closed at another
  // desk) and its onError reads only the payment's requests, never the queue: the other desk's new request would stay off
  // the screen until some later push.
  it('R1: a change pushed just before an approval that then fails is still read (the queue is not left stale)', async () => {
    main.reset();
    let served = [request('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4a')];
    main.answer('refunds:queue', () => ({ requests: served }));
    main.answer('live:watch', () => ({ state: 'live' }));
    main.answer(
      'refunds:approve',
      () =>
        new Promise((resolve) =>
          setTimeout(
            () => resolve({ code: 'request_closed', message: 'This refund request was already approved.' }),
            600,
          ),
        ),
    );
    renderWithData('en-US', <Approvals />);
    await screen.findAllByRole('row');
    await waitFor(() =>
      expect(main.sent.filter((s) => s.channel === 'live:watch').at(-1)?.input).toEqual({
        queue: true,
        reservations: [],
      }),
    );

    // Another desk asks for a refund; a moment later the supervisor approves the first request.
    served = [...served, request('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4b')];
    main.emit('refunds:changed', {
      requestId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4b',
      paymentId: `pay_${'b'.repeat(32)}`,
    });
    fireEvent.click(screen.getByRole('button', { name: /approve/i }));
    fireEvent.click(screen.getByRole('button', { name: 'Refund $200.00 USD' }));
    // The approval fails (decided at another desk meanwhile): its refusal is shown.
    await screen.findByText(/already approved/i, undefined, { timeout: 2000 });
    // The pushed request must be on screen without waiting for yet another push.
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3), { timeout: 1500 });
    cleanup();
  });
});

/** Chloé's 899.99 MXN Visa payment, of which the agent asked back all that is left (main says: all of it, now). */
const full = (overrides: Partial<RefundQueueItem> = {}): RefundQueueItem => ({
  id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  paymentId: `pay_${'e'.repeat(24)}9d21f5a0`,
  refundCents: 89_999,
  currency: 'mxn',
  reason: 'cancellation',
  note: 'Cancelled by phone',
  status: 'pending',
  requestedBy: 'ana',
  requestedByName: 'Ana Torres',
  requestedAt: '2026-11-27T22:01:00Z',
  override: false,
  guestName: 'Chloé Dubois-Smith',
  payment: {
    reservationId: 'SJD-4X6Y9Z',
    amountCents: 89_999,
    currency: 'mxn',
    status: 'succeeded',
    createdAt: '2026-11-27T21:56:00Z',
    brand: 'visa',
    last4: '4242',
    refunds: [],
  },
  ...overrides,
});

describe('Approving is seeing', () => {
  it('each request shows the money it refunds now, the guest, reservation, card, payment date and who asked, by name', async () => {
    main.reset();
    main.answer('refunds:queue', () => ({ requests: [full()] }));
    renderWithData('es-MX', <Approvals />);
    const [, row] = await screen.findAllByRole('row');
    const text = row?.textContent ?? '';
    expect(text).toContain('$899.99 MXN');
    expect(text).toContain('Todo lo que queda de $899.99 MXN');
    expect(text).toContain('Chloé Dubois-Smith');
    expect(text).toContain('SJD-4X6Y9Z');
    expect(text).toContain('Visa •••• 4242');
    expect(text).toContain('Pagado el');
    expect(text).toContain('Ana Torres');
    expect(text).toContain('9D21-F5A0');
    // "All that is left" is never said without its money.
    expect(text).not.toMatch(/Todo lo que queda(?! de \$899\.99 MXN)/);
  });

  it('approving takes one confirmation naming the amount: the first click and a reflex Enter send nothing; the key sends the amount shown', async () => {
    main.reset();
    main.answer('refunds:queue', () => ({ requests: [full({ payment: { ...full().payment!, refunds: [] } })] }));
    main.answer('refunds:approve', () => new Promise(() => undefined));
    renderWithData('es-MX', <Approvals />);
    fireEvent.click(await screen.findByRole('button', { name: /^Aprobar…/ }));
    const step = screen.getByRole('region', { name: 'Aprobar este reembolso' });
    expect(within(step).getByText('¿Aprobar reembolso de $899.99 MXN a Chloé Dubois-Smith?')).toBeTruthy();
    // The focus is on the question, not on the key: a reflex Enter presses nothing.
    expect(document.activeElement?.textContent).toBe('¿Aprobar reembolso de $899.99 MXN a Chloé Dubois-Smith?');
    fireEvent.keyDown(document.activeElement as Element, { key: 'Enter' });
    expect(main.sent.filter((s) => s.channel === 'refunds:approve')).toHaveLength(0);

    fireEvent.click(within(step).getByRole('button', { name: 'Reembolsar $899.99 MXN' }));
    await waitFor(() => expect(main.sent.filter((s) => s.channel === 'refunds:approve')).toHaveLength(1));
    expect(main.sent.find((s) => s.channel === 'refunds:approve')?.input).toEqual({
      requestId: full().id,
      expectedAmountCents: 89_999,
      acknowledgedRefundIds: [],
    });
  });

  it('names the refunds already made of the payment in the step and sends them as shown; a changed amount is said and the key names the new one', async () => {
    main.reset();
    const made = { id: 're_1', amountCents: 20_000, currency: 'mxn', status: 'succeeded' };
    let served = full({ refundCents: 69_999, payment: { ...full().payment!, refunds: [made] } });
    main.answer('refunds:queue', () => ({ requests: [served] }));
    main.answer('refunds:approve', () => {
      served = {
        ...served,
        refundCents: 59_999,
        payment: { ...served.payment!, refunds: [made, { ...made, id: 're_2', amountCents: 10_000 }] },
      };
      return {
        code: 'refund_amount_changed',
        message: 'changed',
        params: { expectedCents: 69_999, amountCents: 59_999, currency: 'mxn' },
      };
    });
    renderWithData('en-US', <Approvals />);
    fireEvent.click(await screen.findByRole('button', { name: /^Approve…/ }));
    const step = screen.getByRole('region', { name: 'Approve this refund' });
    expect(step.textContent).toContain('Already refunded of this payment: $200.00 MXN.');
    fireEvent.click(within(step).getByRole('button', { name: 'Refund $699.99 MXN' }));
    const refusal = await within(step).findByRole('alert');
    expect(refusal.textContent).toContain(
      'You confirmed a refund of $699.99 MXN, but what is left to refund on this payment is now $599.99 MXN',
    );
    expect(main.sent.find((s) => s.channel === 'refunds:approve')?.input).toEqual({
      requestId: full().id,
      expectedAmountCents: 69_999,
      acknowledgedRefundIds: ['re_1'],
    });
    // The queue is read again: the key now names what approving refunds.
    await within(step).findByRole('button', { name: 'Refund $599.99 MXN' });
  });

  it('the decided queue shows who rejected a request, when, and the note', async () => {
    main.reset();
    main.answer('refunds:queue', (input) =>
      (input as { status?: string }).status === 'all'
        ? {
            requests: [
              full({
                status: 'rejected',
                decidedBy: 'sam',
                decidedByName: 'Sam Ruiz',
                decidedAt: '2026-11-27T22:10:00Z',
                decisionNote: 'No cancellation on file',
              }),
            ],
          }
        : { requests: [] },
    );
    renderWithData('es-MX', <Approvals />);
    fireEvent.click(await screen.findByLabelText('Mostrar también las ya decididas'));
    const row = (await screen.findAllByRole('row'))[1];
    await waitFor(() => expect(row?.textContent).toContain('Motivo: No cancellation on file'));
    expect(row?.textContent).toContain('Sam Ruiz, ');
    expect(within(row as HTMLElement).queryByRole('button')).toBeNull();
  });
});

/** The cardholder's 3DS challenge page (interface-decisions §10), as self-contained HTML. */
import { createHash } from 'node:crypto';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}form{display:flex;gap:1rem;margin-top:2rem}
button{font:inherit;padding:.75rem 1.5rem;border-radius:.5rem;border:2px solid #1a1a1a;cursor:pointer}
button[value=approve]{background:#0b6b2f;color:#fff;border-color:#0b6b2f}
button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}`;

/** No script at all; the one style block allowed by its hash; forms post only here (or to an https returnUrl). */
export const CHALLENGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; form-action 'self' https:; base-uri 'none'; frame-ancestors 'none'`;

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

export function challengeForm(p: { amount: number; currency: string; brand: string; last4: string }): string {
  const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: p.currency.toUpperCase() }).format(
    p.amount,
  );
  return page(
    'Confirm your payment',
    `<h1>Confirm your payment</h1>
<p>Your bank asks you to confirm a payment of <strong>${escape(money)}</strong> with your ${escape(p.brand)} card ending in <strong>${escape(p.last4)}</strong>.</p>
<p>This is the Card Payment Service simulator: no real bank is involved.</p>
<form method="post"><button type="submit" name="outcome" value="approve">Approve</button><button type="submit" name="outcome" value="decline">Decline</button></form>`,
  );
}

export const challengeDone = (outcome: 'approve' | 'decline'): string =>
  outcome === 'approve'
    ? page(
        'Payment confirmed',
        '<h1>Payment confirmed</h1><p>Thank you. You can close this page and return to your call.</p>',
      )
    : page('Payment declined', '<h1>Payment declined</h1><p>You declined this payment. You can close this page.</p>');

export const challengeClosed = (state: 'unknown' | 'used' | 'expired' | 'bad_request'): string =>
  ({
    unknown: page('Link not found', '<h1>Link not found</h1><p>This authentication link does not exist.</p>'),
    used: page(
      'Link already used',
      '<h1>This link has already been used</h1><p>Each authentication link works once.</p>',
    ),
    expired: page('Link expired', '<h1>This link has expired</h1><p>Ask the agent for a new payment link.</p>'),
    bad_request: page('Choose an answer', '<h1>Choose Approve or Decline</h1>'),
  })[state];

// The admin's accounts: every operator with their role and whether they may sign in; create, change role, enable or
// disable, reset a password.
import { useId, useState, type FormEvent, type JSX } from 'react';
import { Role, type OperatorView } from '../../../../../shared/operators';
import type { UseMutationResult } from '@tanstack/react-query';
import { describeError } from '../../../bridge/errors';
import { secret } from '../../../bridge/secret';
import { useI18n } from '../../../i18n';
import { DataTable } from '../../../ui/DataTable';
import { QueryState } from '../../../ui/QueryState';
import { useFormGaps } from '../../../ui/useFormGaps';
import { useCreateOperator, useOperators, useResetPassword, useUpdateOperator } from '../api';
import '../../../ui/desk.css';

const text = (form: FormData, name: string): string => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/**
 * Runs one of the screen's account changes: what it did (or why not) is said in the one message line above the table.
 * `then` learns whether it was done.
 */
type Run = <T, V>(mutation: UseMutationResult<T, Error, V>, variables: V, done: (answer: T) => string, then?: (ok: boolean) => void) => void;

export function Accounts({ self }: { self: string }): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const operators = useOperators();
  const [message, setMessage] = useState<string>();
  const [refusal, setError] = useState<string>();
  const gaps = useFormGaps();
  const error = gaps.gap ?? refusal;
  const creation = useCreateOperator();
  const update = useUpdateOperator();
  const reset = useResetPassword();
  const busy = creation.isPending || update.isPending || reset.isPending;

  const run: Run = (mutation, variables, done, then) => {
    setError(undefined);
    setMessage(undefined);
    mutation.mutate(variables, {
      onSuccess: (answer) => {
        setMessage(done(answer));
        then?.(true);
      },
      onError: (e) => {
        setError(describeError(e, t));
        then?.(false);
      },
    });
  };

  function create(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const formElement = event.currentTarget;
    if (!gaps.check(formElement)) return;
    const form = new FormData(formElement);
    const role = Role.safeParse(text(form, 'role'));
    const operator = { id: text(form, 'id').trim(), displayName: text(form, 'displayName'), role: role.success ? role.data : 'agent', password: secret(text(form, 'password')) } as const;
    run(creation, operator, (created) => t('accounts.created', { id: created.id }), (ok) => {
      if (ok) formElement.reset();
    });
  }

  return (
    <div className="desk">
      <section className="panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('accounts.title')}</h2>
        {message && <p role="status">{message}</p>}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <QueryState error={operators.isError ? describeError(operators.error, t) : undefined} />
        {operators.data && (
          <DataTable
            labelledBy={`${id}-title`}
            columns={[
              t('accounts.id'),
              t('accounts.name'),
              t('accounts.role'),
              t('accounts.status'),
              t('accounts.actions'),
            ]}
          >
            {operators.data.map((operator) => (
              <AccountRow key={operator.id} operator={operator} self={operator.id === self} busy={busy} run={run} update={update} reset={reset} />
            ))}
          </DataTable>
        )}
      </section>
      <section className="panel" aria-labelledby={`${id}-create`}>
        <h2 id={`${id}-create`}>{t('accounts.create')}</h2>
        <form className="filters" noValidate onSubmit={create}>
          <div className="field">
            <label htmlFor={`${id}-id`}>{t('accounts.id')}</label>
            <input id={`${id}-id`} name="id" autoComplete="off" required />
          </div>
          <div className="field">
            <label htmlFor={`${id}-name`}>{t('accounts.name')}</label>
            <input id={`${id}-name`} name="displayName" autoComplete="off" required />
          </div>
          <div className="field">
            <label htmlFor={`${id}-role`}>{t('accounts.role')}</label>
            <select id={`${id}-role`} name="role" defaultValue="agent">
              {Role.options.map((role) => (
                <option key={role} value={role}>
                  {t(`role.${role}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>{t('accounts.password')}</label>
            <input id={`${id}-password`} name="password" type="password" autoComplete="new-password" required minLength={12} />
          </div>
          <button type="submit" className="primary" disabled={busy}>
            {t('accounts.createSubmit')}
          </button>
        </form>
      </section>
    </div>
  );
}

interface RowProps {
  operator: OperatorView;
  self: boolean;
  busy: boolean;
  run: Run;
  update: ReturnType<typeof useUpdateOperator>;
  reset: ReturnType<typeof useResetPassword>;
}

function AccountRow({ operator, self, busy, run, update, reset }: RowProps): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const [resetting, setResetting] = useState(false);
  const gaps = useFormGaps();

  const change = (what: { role?: Role; disabled?: boolean }): void => run(update, { id: operator.id, ...what }, (updated) => t('accounts.updated', { id: updated.id }));

  function resetPassword(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const formElement = event.currentTarget;
    if (!gaps.check(formElement)) return;
    const password = secret(text(new FormData(formElement), 'password'));
    formElement.reset();
    run(reset, { id: operator.id, password }, () => t('accounts.resetDone', { id: operator.id }), (ok) => {
      if (ok) setResetting(false);
    });
  }

  return (
    <tr>
      <th scope="row" className="mono">
        {operator.id}
      </th>
      <td>{operator.displayName}</td>
      <td>
        <select
          aria-label={t('accounts.roleOf', { id: operator.id })}
          value={operator.role}
          disabled={busy || self}
          onChange={(event) => {
            const role = Role.safeParse(event.target.value);
            if (role.success) change({ role: role.data });
          }}
        >
          {Role.options.map((role) => (
            <option key={role} value={role}>
              {t(`role.${role}`)}
            </option>
          ))}
        </select>
      </td>
      <td>{operator.disabled ? t('accounts.inactive') : t('accounts.active')}</td>
      <td>
        <div className="actions">
          {!self && (
            <button type="button" disabled={busy} onClick={() => change({ disabled: !operator.disabled })}>
              {operator.disabled ? t('accounts.enable') : t('accounts.disable')}
              <span className="visually-hidden"> {operator.id}</span>
            </button>
          )}
          <button type="button" aria-expanded={resetting} onClick={() => setResetting(!resetting)}>
            {t('accounts.reset')}
            <span className="visually-hidden"> {operator.id}</span>
          </button>
        </div>
        {resetting && (
          <form className="stack" noValidate onSubmit={resetPassword}>
            <label htmlFor={`${id}-password`}>{t('accounts.newPassword', { id: operator.id })}</label>
            <input id={`${id}-password`} name="password" type="password" autoComplete="new-password" required minLength={12} autoFocus />
            {gaps.gap && (
              <p className="error" role="alert">
                {gaps.gap}
              </p>
            )}
            <button type="submit" disabled={busy}>
              {t('accounts.resetSubmit')}
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

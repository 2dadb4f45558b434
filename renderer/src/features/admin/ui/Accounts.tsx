// The admin's accounts: every operator with their role and whether they may sign in; create, change role, enable or
// disable, reset a password.
import { useId, useState, type FormEvent, type JSX } from 'react';
import { Role, type OperatorView } from '../../../../../shared/operators';
import { unwrap } from '../../../bridge/client';
import { describeError } from '../../../bridge/errors';
import { bridge, keys, queryClient, useOperators } from '../../../api/queries';
import { useI18n } from '../../../i18n';
import '../../../ui/desk.css';

const text = (form: FormData, name: string): string => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

const refresh = (): void => void queryClient.invalidateQueries({ queryKey: keys.operators });

export function Accounts({ self }: { self: string }): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const operators = useOperators();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<string>): Promise<boolean> {
    setBusy(true);
    setError(undefined);
    setMessage(undefined);
    try {
      setMessage(await action());
      refresh();
      return true;
    } catch (e) {
      setError(describeError(e, t));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function create(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const role = Role.safeParse(text(form, 'role'));
    const done = await run(async () => {
      const created = await unwrap(
        bridge().operators.create({ id: text(form, 'id').trim(), displayName: text(form, 'displayName'), role: role.success ? role.data : 'agent', password: text(form, 'password') }),
      );
      return t('accounts.created', { id: created.id });
    });
    if (done) formElement.reset();
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
        {operators.isError && (
          <p className="error" role="alert">
            {describeError(operators.error, t)}
          </p>
        )}
        {operators.data && (
          <div className="table-scroll">
            <table className="table" aria-labelledby={`${id}-title`}>
              <thead>
                <tr>
                  <th scope="col">{t('accounts.id')}</th>
                  <th scope="col">{t('accounts.name')}</th>
                  <th scope="col">{t('accounts.role')}</th>
                  <th scope="col">{t('accounts.status')}</th>
                  <th scope="col">{t('accounts.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {operators.data.map((operator) => (
                  <AccountRow key={operator.id} operator={operator} self={operator.id === self} busy={busy} run={run} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="panel" aria-labelledby={`${id}-create`}>
        <h2 id={`${id}-create`}>{t('accounts.create')}</h2>
        <form className="filters" onSubmit={(e) => void create(e)}>
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

function AccountRow({ operator, self, busy, run }: { operator: OperatorView; self: boolean; busy: boolean; run: (action: () => Promise<string>) => Promise<boolean> }): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const [resetting, setResetting] = useState(false);

  const update = (change: { role?: Role; disabled?: boolean }): Promise<boolean> =>
    run(async () => {
      const updated = await unwrap(bridge().operators.update({ id: operator.id, ...change }));
      return t('accounts.updated', { id: updated.id });
    });

  async function reset(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const formElement = event.currentTarget;
    const password = text(new FormData(formElement), 'password');
    const done = await run(async () => {
      await unwrap(bridge().operators.resetPassword({ id: operator.id, password }));
      return t('accounts.resetDone', { id: operator.id });
    });
    formElement.reset();
    if (done) setResetting(false);
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
            if (role.success) void update({ role: role.data });
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
            <button type="button" disabled={busy} onClick={() => void update({ disabled: !operator.disabled })}>
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
          <form className="stack" onSubmit={(e) => void reset(e)}>
            <label htmlFor={`${id}-password`}>{t('accounts.newPassword', { id: operator.id })}</label>
            <input id={`${id}-password`} name="password" type="password" autoComplete="new-password" required minLength={12} autoFocus />
            <button type="submit" disabled={busy}>
              {t('accounts.resetSubmit')}
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

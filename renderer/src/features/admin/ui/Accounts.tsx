// The admin's accounts: every operator with their role and whether they may sign in; create, change role, enable or
// disable, reset a password.
import { useEffect, useId, useRef, useState, type FormEvent, type JSX } from 'react';
import {
  DisplayName,
  NewOperatorId,
  Password,
  RESERVED_OPERATOR_IDS,
  Role,
  type OperatorView,
} from '../../../../../shared/operators';
import type { UseMutationResult } from '@tanstack/react-query';
import { ApiError, describeError } from '../../../bridge/errors';
import { secret } from '../../../bridge/secret';
import { useI18n } from '../../../i18n';
import { DataTable } from '../../../ui/DataTable';
import { Field } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { formText as text } from '../../../ui/text';
import type { I18n } from '../../../i18n';
import { useCreateOperator, useOperators, useResetPassword, useUpdateOperator } from '../api';
import '../../../ui/desk.css';

/**
 * Runs one of the screen's account changes: what it did (or why not) is said in the one message line above the table.
 * `then` learns whether it was done.
 */
type Run = <T, V>(
  mutation: UseMutationResult<T, Error, V>,
  variables: V,
  done: (answer: T) => string,
  then?: (ok: boolean) => void,
) => void;

/** The new account's fields, each checked by the rule main applies (shared/operators) and told next to the field. */
type NewField = 'id' | 'displayName' | 'password';
type FieldProblems = Partial<Record<NewField, string>>;

/** What is wrong with each field of a new account, worded with the field's rule; empty when main would take it. */
export function newAccountProblems(values: Record<NewField, string>, { t }: Pick<I18n, 't'>): FieldProblems {
  const problems: FieldProblems = {};
  const id = values.id.trim();
  if (RESERVED_OPERATOR_IDS.includes(id.toLowerCase())) problems.id = t('accounts.rule.idReserved');
  else if (!NewOperatorId.safeParse(id).success) problems.id = t('accounts.rule.id');
  if (!DisplayName.safeParse(values.displayName).success) problems.displayName = t('accounts.rule.name');
  if (!Password.safeParse(values.password).success) problems.password = t('accounts.rule.password');
  return problems;
}

/** A field's own problem, said under it and read with it (aria-describedby). */
function FieldProblem({ id, problem }: { id: string; problem: string | undefined }): JSX.Element | null {
  if (problem === undefined) return null;
  return (
    <p id={id} className="field__error error">
      {problem}
    </p>
  );
}

type ProblemProps = { 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A field with a problem is marked invalid and described by it (the FieldProblem with `problemId`). */
const problemProps = (problemId: string, problem: string | undefined): ProblemProps =>
  problem === undefined ? {} : { 'aria-invalid': true, 'aria-describedby': problemId };

/**
 * A new password (the Password rule: at least 12 characters), with its problem under it (its id: `${id}-problem`).
 */
function NewPasswordInput({
  id,
  problem,
  autoFocus = false,
}: {
  id: string;
  problem: string | undefined;
  autoFocus?: boolean;
}): JSX.Element {
  return (
    <>
      <input
        id={id}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={12}
        autoFocus={autoFocus}
        {...problemProps(`${id}-problem`, problem)}
      />
      <FieldProblem id={`${id}-problem`} problem={problem} />
    </>
  );
}

/** The roles, in words, as a role list's options. */
function RoleOptions(): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      {Role.options.map((role) => (
        <option key={role} value={role}>
          {t(`role.${role}`)}
        </option>
      ))}
    </>
  );
}

export function Accounts({ self }: { self: string }): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const operators = useOperators();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();
  const [problems, setProblems] = useState<FieldProblems>({});
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
    const form = new FormData(formElement);
    const values = { id: text(form, 'id'), displayName: text(form, 'displayName'), password: text(form, 'password') };
    const found = newAccountProblems(values, { t });
    setProblems(found);
    setMessage(undefined);
    setError(undefined);
    const first = (['id', 'displayName', 'password'] as const).find((name) => found[name] !== undefined);
    if (first !== undefined) {
      formElement.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    const role = Role.safeParse(text(form, 'role'));
    const operator = {
      id: values.id.trim(),
      displayName: values.displayName,
      role: role.success ? role.data : 'agent',
      password: secret(values.password),
    } as const;
    creation.mutate(operator, {
      onSuccess: (created) => {
        setMessage(t('accounts.created', { id: created.id }));
        formElement.reset();
      },
      onError: (e) => {
        // A refusal about one field is said next to it; any other above the table.
        const field = e instanceof ApiError ? (e.code === 'already_exists' ? 'id' : e.field) : undefined;
        if (field === 'id' || field === 'displayName' || field === 'password') {
          const said =
            e instanceof ApiError && e.code === 'already_exists'
              ? t('accounts.rule.idTaken', { id: operator.id })
              : describeError(e, t);
          setProblems({ [field]: said });
          formElement.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
        } else setError(describeError(e, t));
      },
    });
  }

  /** The field's problem's element id, for aria-describedby, when it has one. */
  const describedBy = (name: NewField): ProblemProps => problemProps(`${id}-${name}-problem`, problems[name]);

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
              <AccountRow
                key={operator.id}
                operator={operator}
                self={operator.id === self}
                busy={busy}
                run={run}
                update={update}
                reset={reset}
              />
            ))}
          </DataTable>
        )}
      </section>
      <section className="panel" aria-labelledby={`${id}-create`}>
        <h2 id={`${id}-create`}>{t('accounts.create')}</h2>
        <form className="filters" noValidate onSubmit={create}>
          <Field id={`${id}-id`} label={t('accounts.id')}>
            <input id={`${id}-id`} name="id" autoComplete="off" required {...describedBy('id')} />
            <FieldProblem id={`${id}-id-problem`} problem={problems.id} />
          </Field>
          <Field id={`${id}-name`} label={t('accounts.name')}>
            <input id={`${id}-name`} name="displayName" autoComplete="off" required {...describedBy('displayName')} />
            <FieldProblem id={`${id}-displayName-problem`} problem={problems.displayName} />
          </Field>
          <Field id={`${id}-role`} label={t('accounts.role')}>
            <select id={`${id}-role`} name="role" defaultValue="agent">
              <RoleOptions />
            </select>
          </Field>
          <Field id={`${id}-password`} label={t('accounts.password')}>
            <NewPasswordInput id={`${id}-password`} problem={problems.password} />
          </Field>
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
  const [problem, setProblem] = useState<string>();
  /** The role chosen in the list, until the admin confirms or cancels it: nothing is sent before. */
  const [newRole, setNewRole] = useState<Role>();
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (newRole !== undefined) confirmation.current?.focus();
  }, [newRole]);

  const change = (what: { role?: Role; disabled?: boolean }, then?: (ok: boolean) => void): void =>
    run(update, { id: operator.id, ...what }, (updated) => t('accounts.updated', { id: updated.id }), then);

  function confirmRole(): void {
    if (newRole === undefined) return;
    change({ role: newRole }, () => setNewRole(undefined));
  }

  function resetPassword(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const formElement = event.currentTarget;
    const typed = text(new FormData(formElement), 'password');
    if (!Password.safeParse(typed).success) {
      setProblem(t('accounts.rule.password'));
      formElement.querySelector<HTMLInputElement>('input[name="password"]')?.focus();
      return;
    }
    setProblem(undefined);
    const password = secret(typed);
    formElement.reset();
    run(
      reset,
      { id: operator.id, password },
      () => t('accounts.resetDone', { id: operator.id }),
      (ok) => {
        if (ok) setResetting(false);
      },
    );
  }

  const roles = {
    name: operator.displayName,
    id: operator.id,
    from: t(`role.${operator.role}`),
    to: newRole === undefined ? '' : t(`role.${newRole}`),
  };
  return (
    <tr>
      <th scope="row" className="mono">
        {operator.id}
      </th>
      <td>{operator.displayName}</td>
      <td>
        <select
          aria-label={t('accounts.roleOf', { id: operator.id })}
          value={newRole ?? operator.role}
          disabled={busy || self}
          onChange={(event) => {
            const role = Role.safeParse(event.target.value);
            if (role.success) setNewRole(role.data === operator.role ? undefined : role.data);
          }}
        >
          <RoleOptions />
        </select>
        {newRole !== undefined && (
          <div
            ref={confirmation}
            className="confirm stack"
            role="alertdialog"
            aria-labelledby={`${id}-confirm`}
            tabIndex={-1}
          >
            <p id={`${id}-confirm`}>{t('accounts.confirmRole', roles)}</p>
            <div className="actions">
              <button type="button" className="primary" disabled={busy} onClick={confirmRole}>
                {t('accounts.confirmRoleSubmit', { to: roles.to })}
              </button>
              <button type="button" onClick={() => setNewRole(undefined)}>
                {t('common.cancel')}
              </button>
            </div>
          </div>
        )}
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
            <NewPasswordInput id={`${id}-password`} problem={problem} autoFocus />
            <button type="submit" disabled={busy}>
              {t('accounts.resetSubmit')}
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

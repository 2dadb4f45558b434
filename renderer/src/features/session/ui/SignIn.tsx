// Sign-in and first-run screens: operator id and password, errors shown in words, focus where the agent types.
import { useRef, type FormEvent, type InputHTMLAttributes, type JSX } from 'react';
import type { OperatorView } from '../../../../../shared/operators';
import { ApiError, describeError } from '../../../bridge/errors';
import { secret } from '../../../bridge/secret';
import { useI18n } from '../../../i18n';
import { formText as field, useFormGaps } from '../../../ui';
import { useCreateFirstAdmin, useEndLocked, useSignIn } from '../api';

/** The operator's id: the first field, where the operator types at once. */
function OperatorIdField({ id }: { id: string }): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      <label htmlFor={id}>{t('signin.id')}</label>
      <input id={id} name="id" autoComplete="username" required autoFocus />
    </>
  );
}

interface PasswordFieldProps
  extends Pick<InputHTMLAttributes<HTMLInputElement>, 'minLength' | 'aria-invalid' | 'aria-describedby'> {
  id: string;
  label: string;
  autoComplete: 'current-password' | 'new-password';
}

/** A password: the operator's own ("current-password") or a new one ("new-password", with its rule's length). */
function PasswordField({ id, label, autoComplete, ...input }: PasswordFieldProps): JSX.Element {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} name="password" type="password" autoComplete={autoComplete} required {...input} />
    </>
  );
}

interface Props {
  onSignedIn: (operator: OperatorView) => void;
}

interface SignInProps extends Props {
  /** The lock screen: the same operator signs in again, or the desk is handed to someone else. */
  locked?: boolean;
  /** The locked session was ended ("Sign in as someone else"): the shell shows the plain sign-in. */
  onHandedOver?: () => void;
  /** Shown above the form once a locked session was ended here. */
  handedOver?: boolean;
  /** This desk's session was ended by its operator signing in at another desk: said above the form. */
  endedElsewhere?: { deskId?: string | undefined; sinceAt?: string | undefined };
}

export function SignIn({
  onSignedIn,
  locked = false,
  onHandedOver,
  handedOver = false,
  endedElsewhere,
}: SignInProps): JSX.Element {
  const { t } = useI18n();
  const signIn = useSignIn();
  const endLocked = useEndLocked();
  const busy = signIn.isPending || endLocked.isPending;
  const failed = signIn.error ?? endLocked.error;
  const gaps = useFormGaps();
  const error = gaps.gap ?? (failed === null ? undefined : describeError(failed, t));
  const form = useRef<HTMLFormElement>(null);
  // Refused because the operator's session is open at another desk of the center: they may end it and sign in here.
  const wrongPassword =
    gaps.gap === undefined && signIn.error instanceof ApiError && signIn.error.code === 'invalid_credentials';
  const elsewhere =
    signIn.error instanceof ApiError && signIn.error.code === 'session_elsewhere'
      ? signIn.error.params?.['deskId']
      : undefined;

  /** Ends the locked session (main records it) so that another operator can sign in; the card data is already gone. */
  function handOver(): void {
    signIn.reset();
    endLocked.mutate(undefined, { onSuccess: () => onHandedOver?.() });
  }

  /** Signs in with what the form holds now; `endSessionElsewhere` ends the operator's session at the other desk. */
  function send(element: HTMLFormElement, endSessionElsewhere: boolean): void {
    if (!gaps.check(element)) return;
    const data = new FormData(element);
    endLocked.reset();
    signIn.mutate(
      {
        id: field(data, 'id'),
        password: secret(field(data, 'password')),
        ...(endSessionElsewhere ? { endSessionElsewhere } : {}),
      },
      {
        onSuccess: onSignedIn,
        onError: (e) => {
          // A wrong password is emptied and focused with the message: the next keys type it again, never after it.
          if (!(e instanceof ApiError) || e.code !== 'invalid_credentials') return;
          const password = element.elements.namedItem('password');
          if (!(password instanceof HTMLInputElement)) return;
          password.value = '';
          password.focus();
        },
      },
    );
  }

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    send(event.currentTarget, false);
  }

  return (
    <form ref={form} className="card" aria-labelledby="sign-in-title" noValidate onSubmit={submit}>
      <h2 id="sign-in-title">{locked ? t('signin.lockedTitle') : t('signin.title')}</h2>
      {locked && <p>{t('signin.lockedHelp')}</p>}
      {handedOver && <p role="status">{t('signin.handedOver')}</p>}
      {endedElsewhere !== undefined && (
        <p role="status">
          {describeError(
            new ApiError({
              code: 'session_ended_elsewhere',
              message: '',
              params: Object.fromEntries(
                Object.entries(endedElsewhere).filter((entry): entry is [string, string] => entry[1] !== undefined),
              ),
            }),
            t,
          )}
        </p>
      )}
      <OperatorIdField id="sign-in-id" />
      <PasswordField
        id="sign-in-password"
        label={t('signin.password')}
        autoComplete="current-password"
        {...(wrongPassword ? { 'aria-invalid': true, 'aria-describedby': 'sign-in-error' } : {})}
      />
      {error && (
        <p id="sign-in-error" className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {t('signin.submit')}
      </button>
      {elsewhere !== undefined && (
        <button type="button" disabled={busy} onClick={() => form.current && send(form.current, true)}>
          {t('signin.endElsewhere', { deskId: String(elsewhere) })}
        </button>
      )}
      {locked && (
        <button type="button" className="link" disabled={busy} onClick={handOver}>
          {t('signin.handOver')}
        </button>
      )}
    </form>
  );
}

export function FirstAdmin({ onSignedIn }: Props): JSX.Element {
  const { t } = useI18n();
  const create = useCreateFirstAdmin();
  const gaps = useFormGaps();
  const error = gaps.gap ?? (create.error === null ? undefined : describeError(create.error, t));

  const submit = gaps.onSubmit((form) =>
    create.mutate(
      { id: field(form, 'id'), displayName: field(form, 'displayName'), password: secret(field(form, 'password')) },
      { onSuccess: onSignedIn },
    ),
  );

  return (
    <form className="card" aria-labelledby="first-admin-title" noValidate onSubmit={submit}>
      <h2 id="first-admin-title">{t('firstAdmin.title')}</h2>
      <p>{t('firstAdmin.help')}</p>
      <OperatorIdField id="first-admin-id" />
      <label htmlFor="first-admin-name">{t('firstAdmin.name')}</label>
      <input id="first-admin-name" name="displayName" autoComplete="name" required />
      <PasswordField
        id="first-admin-password"
        label={t('firstAdmin.password')}
        autoComplete="new-password"
        minLength={12}
      />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit">{t('firstAdmin.submit')}</button>
    </form>
  );
}

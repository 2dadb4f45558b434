// Reservation lookup: one field for confirmation number, guest name, phone or e-mail; Enter opens the first match.
import { useQueryClient } from '@tanstack/react-query';
import {
  useDeferredValue,
  useEffect,
  useId,
  useRef,
  useState,
  type JSX,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { ReservationQuery, type ReservationView } from '../../../../../shared/reservations';
import { cardDataIn, clearedText, describeError, type CardDataIssue } from '../../../bridge/errors';
import { useI18n } from '../../../i18n';
import { holdTypeAhead } from '../../../ui/typeAhead';
import { callKeys, useReservationSearch } from '../api';

interface Props {
  onOpen: (reservation: ReservationView) => void;
  /** Where F2 puts the focus. */
  inputRef: RefObject<HTMLInputElement | null>;
}

export function Lookup({ onOpen, inputRef }: Props): JSX.Element {
  const { t, money, date } = useI18n();
  const [text, setText] = useState('');
  /** Card data typed in the box: it was emptied at once, with the searches of its digits, and says why. */
  const [cleared, setCleared] = useState<CardDataIssue>();
  const queryClient = useQueryClient();
  const deferred = useDeferredValue(text);
  // The searches made while a card number was typed hold most of its digits: once the box is empty, none stays cached.
  useEffect(() => {
    if (cleared !== undefined && deferred === '')
      queryClient.removeQueries({ queryKey: callKeys.search('').slice(0, 2) });
  }, [cleared, deferred, queryClient]);
  const search = useReservationSearch(deferred);
  const results = search.data ?? [];
  const hintId = useId();
  const listId = useId();

  /**
   * Enter pressed while the results on screen are not yet those of the text typed (the search still catching up with a
   * fast typist): the first match of that text is opened once it arrives, never a match of a shorter text.
   */
  const enterFor = useRef<string>(undefined);
  const current = deferred === text && search.isSuccess && !search.isFetching;

  function open(first: ReservationView): void {
    // What the agent types next is the card: held until the card form is drawn, never left in the search box.
    holdTypeAhead();
    onOpen(first);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    if (event.key !== 'Enter' || text.trim().length < 2) return;
    event.preventDefault();
    const first = results[0];
    if (current) {
      if (first !== undefined) open(first);
    } else {
      enterFor.current = text;
    }
  }

  useEffect(() => {
    if (enterFor.current === undefined || !current) return;
    const wanted = enterFor.current;
    enterFor.current = undefined;
    const first = results[0];
    if (wanted === text && first !== undefined) open(first);
  });

  return (
    <section className="panel lookup" aria-labelledby="lookup-title">
      <h2 id="lookup-title">{t('lookup.title')}</h2>
      <label htmlFor="lookup-input">{t('lookup.label')}</label>
      <input
        id="lookup-input"
        ref={inputRef}
        type="search"
        value={text}
        autoFocus
        autoComplete="off"
        spellCheck={false}
        aria-describedby={hintId}
        aria-controls={listId}
        onChange={(event) => {
          // Typing on takes back an Enter still waiting for its results.
          enterFor.current = undefined;
          const cardData = cardDataIn(ReservationQuery.shape.text, event.target.value);
          setCleared(cardData);
          setText(cardData === undefined ? event.target.value : '');
        }}
        onKeyDown={onKeyDown}
      />
      <p id={hintId} className="hint">
        {t('lookup.hint')}
      </p>
      {cleared !== undefined && (
        <p className="error" role="alert">
          {clearedText(cleared, t('lookup.title'), t)}
        </p>
      )}
      {cleared === undefined && search.isError && (
        <p className="error" role="alert">
          {describeError(search.error, t)}
        </p>
      )}
      {deferred.trim().length >= 2 && search.isSuccess && results.length === 0 && (
        <p role="status">{t('lookup.none')}</p>
      )}
      <ul id={listId} className="results" aria-label={t('lookup.results')}>
        {results.map((reservation) => (
          <li key={reservation.confirmationNumber}>
            <button type="button" className="result" onClick={() => onOpen(reservation)}>
              <span className="result__main">
                <strong>{reservation.guestName}</strong> · {reservation.confirmationNumber}
              </span>
              <span className="result__meta">
                {reservation.hotelName} · {date(reservation.checkIn)} – {date(reservation.checkOut)} ·{' '}
                {t('lookup.balance')} {money(reservation.balanceDueCents, reservation.currency)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

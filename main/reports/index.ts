/** Reports for supervisors: the end-of-day totals, counted from the journal in the desk's time zone. */
export { endOfDayReport, localDayAndHour, searchWindow, type EndOfDayInput } from './end-of-day';

// The end-of-day report for supervisors: totals per agent and currency, MSI by plan, volume by hour; CSV and print.
export { reportKeys, useEndOfDay } from './api';
export { EndOfDay } from './ui/EndOfDay';

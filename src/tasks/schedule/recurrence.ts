/** The one list of recurrence frequencies. */
export const RECURRENCE_FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];

export interface RecurrenceRule {
  frequency: RecurrenceFrequency;
}

export interface Schedule {
  /** Local date-time `YYYY-MM-DDTHH:MM:SS`, read in `timeZone`. */
  start: string;
  /** IANA time-zone name. */
  timeZone: string;
  recurrenceRules: RecurrenceRule[];
}

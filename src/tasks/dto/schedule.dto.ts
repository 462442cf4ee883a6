import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { customRule, IsListOf, IsOmittable, IsTextWith } from '../../validation/validation.decorators.js';
import { isInStartYears, parseLocalDateTime, START_YEARS } from '../schedule/local-date-time.js';
import { isIanaTimeZone, TIME_ZONE_NAME_PATTERN } from '../schedule/time-zone.js';
import { RECURRENCE_FREQUENCIES, type RecurrenceFrequency } from '../schedule/recurrence.js';

export const MAX_RECURRENCE_RULES = 10;

export const TIME_ZONE_RULE =
  'IANA time-zone name (or an alias of one, such as `US/Pacific`), in any letter case; stored and returned as the IANA database ' +
  'spells it: `europe/BERLIN` becomes `Europe/Berlin`, `us/pacific` becomes `US/Pacific`';

/**
 * Bounds on what is parsed at all. A start is 19 characters; a longer one up to the bound is told
 * what form it must take. IANA zone names are at most 32 characters today.
 */
export const SCHEDULE_LIMITS = { startLength: 64, timeZoneLength: 64 } as const;

@ApiSchema({ name: 'RecurrenceRuleInput' })
export class RecurrenceRuleDto {
  @ApiProperty({ enum: RECURRENCE_FREQUENCIES, example: 'daily' })
  @IsIn(RECURRENCE_FREQUENCIES)
  frequency: RecurrenceFrequency;
}

function IsLocalDateTime(): PropertyDecorator {
  return IsTextWith(
    SCHEDULE_LIMITS.startLength,
    customRule('isLocalDateTime', (value) => {
      const local = parseLocalDateTime(String(value));
      if (local === undefined) return 'must be a real local date-time YYYY-MM-DDTHH:MM:SS, without offset';
      return isInStartYears(local) ? undefined : `must be in the years ${START_YEARS.min} to ${START_YEARS.max}`;
    }),
  );
}

function IsTimeZoneName(): PropertyDecorator {
  return IsTextWith(
    SCHEDULE_LIMITS.timeZoneLength,
    customRule('isTimeZoneName', (value) => (isIanaTimeZone(String(value)) ? undefined : 'must be an IANA time-zone name, such as Europe/Berlin')),
  );
}

/** `YYYY-MM-DDTHH:MM:SS`, no offset: how `start` is sent and returned. */
export const LOCAL_DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$';

const START: ApiPropertyOptions = {
  description: `Local date-time without offset, read in \`timeZone\`; in the years ${START_YEARS.min} to ${START_YEARS.max}`,
  example: '2026-12-01T09:30:00',
  maxLength: SCHEDULE_LIMITS.startLength,
  pattern: LOCAL_DATE_TIME_PATTERN,
};
const TIME_ZONE: ApiPropertyOptions = {
  description: TIME_ZONE_RULE,
  example: 'Europe/Berlin',
  maxLength: SCHEDULE_LIMITS.timeZoneLength,
  pattern: TIME_ZONE_NAME_PATTERN,
};
const RULES: ApiPropertyOptions = { type: [RecurrenceRuleDto], maxItems: MAX_RECURRENCE_RULES, description: 'None: the task runs once, at `start`' };

@ApiSchema({ name: 'ScheduleInput' })
export class ScheduleDto {
  @ApiProperty(START)
  @IsLocalDateTime()
  start: string;

  @ApiProperty(TIME_ZONE)
  @IsTimeZoneName()
  timeZone: string;

  @ApiPropertyOptional({ ...RULES, default: [] })
  @IsOmittable()
  @IsListOf(() => RecurrenceRuleDto, MAX_RECURRENCE_RULES)
  recurrenceRules?: RecurrenceRuleDto[];
}

/** In an update each schedule field may be left out and keeps its stored value. */
@ApiSchema({ name: 'UpdateScheduleInput' })
export class UpdateScheduleDto {
  @ApiPropertyOptional(START)
  @IsOmittable()
  @IsLocalDateTime()
  start?: string;

  @ApiPropertyOptional(TIME_ZONE)
  @IsOmittable()
  @IsTimeZoneName()
  timeZone?: string;

  @ApiPropertyOptional(RULES)
  @IsOmittable()
  @IsListOf(() => RecurrenceRuleDto, MAX_RECURRENCE_RULES)
  recurrenceRules?: RecurrenceRuleDto[];
}

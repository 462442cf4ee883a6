import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { customRule, IsListOf, IsOmittable, IsTextWith } from '../../common/validation.decorators.js';
import { isTimeZoneName, parseLocalDateTime } from '../schedule/local-date-time.js';
import { RECURRENCE_FREQUENCIES, type RecurrenceFrequency } from '../schedule/recurrence.js';

export const MAX_RECURRENCE_RULES = 10;

export class RecurrenceRuleDto {
  @ApiProperty({ enum: RECURRENCE_FREQUENCIES, example: 'daily' })
  @IsIn(RECURRENCE_FREQUENCIES)
  frequency: RecurrenceFrequency;
}

function IsLocalDateTime(): PropertyDecorator {
  return IsTextWith(
    64,
    customRule('isLocalDateTime', (value) =>
      parseLocalDateTime(String(value)) === undefined ? 'must be a real local date-time YYYY-MM-DDTHH:MM:SS, without offset' : undefined,
    ),
  );
}

function IsTimeZoneName(): PropertyDecorator {
  return IsTextWith(
    64,
    customRule('isTimeZoneName', (value) => (isTimeZoneName(String(value)) ? undefined : 'must be an IANA time-zone name, such as Europe/Berlin')),
  );
}

/** `YYYY-MM-DDTHH:MM:SS`, no offset: how `start` is sent and returned. */
export const LOCAL_DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$';

const START: ApiPropertyOptions = { description: 'Local date-time without offset, read in `timeZone`', example: '2026-12-01T09:30:00', pattern: LOCAL_DATE_TIME_PATTERN };
const TIME_ZONE: ApiPropertyOptions = { description: 'IANA time-zone name', example: 'Europe/Berlin' };
const RULES: ApiPropertyOptions = { type: [RecurrenceRuleDto], maxItems: MAX_RECURRENCE_RULES, description: 'None: the task runs once, at `start`' };

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

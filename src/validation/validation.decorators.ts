import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  isObject,
  IsObject,
  IsString,
  isURL,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';

/** PostgreSQL text cannot hold NUL; refusing it here keeps such input a 400 rather than a failed query. */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
export const NO_NUL = /^[^\u0000]*$/;

const NO_NUL_MESSAGE = { message: ({ property }: ValidationArguments) => `${property} must not contain NUL characters` };

/** A human label: 1 to 255 characters, not only blanks. */
export function IsLabel(): PropertyDecorator {
  return applyDecorators(
    IsString(),
    Length(1, 255),
    Matches(/\S/, { message: ({ property }) => `${property} must not be blank` }),
    Matches(NO_NUL, NO_NUL_MESSAGE),
  );
}

/** Free text of `min` to `max` characters. */
export function IsText(min: number, max: number): PropertyDecorator {
  return applyDecorators(IsString(), Length(min, max), Matches(NO_NUL, NO_NUL_MESSAGE));
}

/*
 * Rules stacked on one property run bottom-up, and with `stopAtFirstError` only the first
 * failure is reported; the combinations below keep the type check first, so a wrong type is
 * reported as such rather than as a failed bound.
 */

/** An integer from `min` to `max`. */
export function IsIntegerIn(min: number, max: number): PropertyDecorator {
  return applyDecorators(IsInt(), Min(min), Max(max));
}

/** Up to `maxItems` strings, each of 1 to `maxLength` characters. */
export function IsTextList(maxItems: number, maxLength: number): PropertyDecorator {
  return applyDecorators(
    IsArray(),
    ArrayMaxSize(maxItems),
    IsString({ each: true }),
    Length(1, maxLength, { each: true }),
    Matches(NO_NUL, { each: true, message: ({ property }) => `each value in ${property} must not contain NUL characters` }),
  );
}

/**
 * Up to `maxItems` objects, each validated as an instance of `itemType`. Every list of objects
 * goes through here: class-validator walks into an item that is itself an array and checks its
 * items instead, so `[[]]` would pass as a list of no objects; the first item that is not an
 * object is named by its index.
 */
export function IsListOf(itemType: () => new () => object, maxItems: number): PropertyDecorator {
  return applyDecorators(
    IsArray(),
    ArrayMaxSize(maxItems),
    customRule(
      'isListOfObjects',
      (list) => {
        const index = (list as unknown[]).findIndex((item) => !isObject(item));
        return index === -1 ? undefined : `[${index}] must be an object`;
      },
      { spaced: false },
    ),
    ValidateNested({ each: true }),
    Type(itemType),
  );
}

/** A string of at most `maxLength` characters that satisfies `rule`. */
export function IsTextWith(maxLength: number, rule: PropertyDecorator): PropertyDecorator {
  return applyDecorators(IsString(), MaxLength(maxLength), rule);
}

/**
 * May be left out, but not sent as null: for fields that must hold a value once stored
 * (`@IsOptional` would let a null through to a NOT NULL column).
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_, value) => value !== undefined);
}

export const MAX_URL_LENGTH = 2048;

/**
 * C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional controls (which
 * make a URL read otherwise than it goes): validator's isURL lets some through, NUL among them, and
 * no URL holds them unescaped.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** `http://` or `https://`, then no space: the rest is left to isURL and to the host check below. */
const HTTP_URL_START = /^https?:\/\/\S*$/i;
/** The authority as RFC 3986 delimits it: up to the first `/`, `?` or `#`. */
const AUTHORITY = /^https?:\/\/([^/?#]*)/i;
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const PORT = /:\d*$/;
/** An IPv6 address in brackets, without a zone (which WHATWG cannot read). */
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/;

/**
 * Why the host of an http(s) URL might be read otherwise by another parser, or undefined. Parsers
 * disagree on `https://10.0.0.1\@example.com/` (WHATWG reads 10.0.0.1, RFC 3986 example.com), on
 * `https://a[@example.com/`, on full-width dots and soft hyphens (which WHATWG maps away), on
 * percent-escapes and shortened IPv4 addresses in the host. So the host must be ASCII, and the one
 * RFC 3986 delimits must be, letter case aside, the one WHATWG's URL reads.
 */
function hostProblem(url: string): string | undefined {
  const authority = AUTHORITY.exec(url)?.[1] ?? '';
  if (!PRINTABLE_ASCII.test(authority)) return 'must give its host in ASCII (an internationalised domain name in its xn-- form)';
  const at = authority.lastIndexOf('@');
  const host = authority
    .slice(at + 1)
    .replace(PORT, '')
    .toLowerCase();
  const userInfo = authority.slice(0, Math.max(at, 0));
  const hostname = /[[\]\\]/.test(userInfo) ? undefined : whatwgHostname(url);
  // An IPv6 address may be written in several forms, of which WHATWG gives the shortest: the same address either way.
  const sameHost = IPV6_LITERAL.test(host) ? hostname?.startsWith('[') === true : hostname === host;
  return sameHost
    ? undefined
    : 'must name its host as every URL parser reads it (no \\, [ or ] but around an IPv6 address, no escapes or shortened IPv4 addresses)';
}

/** The host WHATWG's URL reads, or undefined when it cannot read the URL at all. */
function whatwgHostname(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * What of IsHttpUrl a JSON Schema pattern can state, for the document: the scheme in any letter
 * case, a host part, no blank and none of CONTROL_CHARACTER. Not `format: uri`, which is stricter
 * than the service: RFC 3986 refuses the `|` and bare `%` accepted in a path or query.
 */
const URL_CHARACTER = `[^\\s${CONTROL_CHARACTER.source.slice(1, -1)}]`;
export const HTTP_URL_SCHEMA = {
  maxLength: MAX_URL_LENGTH,
  pattern: `^[Hh][Tt][Tt][Pp][Ss]?://(?:(?![/?#])${URL_CHARACTER})+(?:[/?#]${URL_CHARACTER}*)?$`,
} as const;

/** An absolute http(s) URL with a host; internal host names without a dot are fine. */
export function IsHttpUrl(): PropertyDecorator {
  return applyDecorators(
    IsString(),
    Length(1, MAX_URL_LENGTH),
    customRule('isHttpUrl', (value) => {
      const url = String(value);
      if (CONTROL_CHARACTER.test(url)) return 'must not contain control characters';
      const absolute = HTTP_URL_START.test(url) && isURL(url, { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_host: true });
      return absolute ? hostProblem(url) : 'must be an absolute http or https URL';
    }),
  );
}

/**
 * An object that goes with one value of a discriminator field (a tool's settings for its type,
 * an MCP server's transport for its transport type): refused beside any other value, and
 * required with its own when `required`.
 */
export function IsVariantOf(discriminator: string, value: string, { required }: { required: boolean }): PropertyDecorator {
  return applyDecorators(
    ValidateIf((dto: Record<string, unknown>, own) => own !== undefined || (required && dto[discriminator] === value)),
    customRule(`isVariantOf${value}`, (own, dto) => {
      if (dto[discriminator] !== value) return `is accepted only with ${discriminator} ${value}`;
      return own === undefined ? `is required with ${discriminator} ${value}` : undefined;
    }),
    IsObject(),
    ValidateNested(),
  );
}

/**
 * A synchronous rule whose check returns what is wrong (or undefined when nothing is); the
 * message is the property name followed by a space (unless not `spaced`) and that text, so nested
 * paths can be prefixed.
 */
export function customRule(
  name: string,
  problemOf: (value: unknown, dto: Record<string, unknown>) => string | undefined,
  { spaced = true } = {},
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => problemOf(value, args.object as Record<string, unknown>) === undefined,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property}${spaced ? ' ' : ''}${problemOf(args.value, args.object as Record<string, unknown>) ?? 'is invalid'}`,
      },
    });
}

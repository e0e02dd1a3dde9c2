import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { attachRecovery, itemError } from './errors';
import { describe, trimEnd } from './text';

/**
 * Collects every problem of one item's input before anything is sent, then reports them together:
 * `[item 2] client.email: "abc" is not an e-mail address`. Checks skip absent values unless they are
 * `required` checks, so optional fields are validated only when given. Warnings do not stop the request;
 * the caller puts them in the output.
 */
export class Checker {
	readonly problems: string[] = [];
	readonly warnings: string[] = [];
	/** Where accepted numeric texts are written back as numbers (see `numbersInto`). */
	private root?: IDataObject;

	/**
	 * From now on, a numeric text that `number()` or `integer()` accepts is replaced by its number in `root`,
	 * at the field's path from it (`items[0].cantidad`): the body sent carries the number that was checked
	 * (`"12.50"` is sent as 12.5), not a text the service could read otherwise. A field that is not such a
	 * path, or whose value there is not the text checked, is left as it is.
	 */
	numbersInto(root: IDataObject): this {
		this.root = root;
		return this;
	}

	private accepted(field: string, value: unknown, n: number): void {
		if (this.root && typeof value === 'string') replaceAt(this.root, field, value, n);
	}

	fail(field: string, what: string): this {
		this.problems.push(`${field}: ${what}`);
		return this;
	}

	warn(field: string, what: string): this {
		this.warnings.push(`${field}: ${what}`);
		return this;
	}

	required(field: string, value: unknown): boolean {
		if (isMissing(value)) {
			this.fail(field, 'is required');
			return false;
		}
		return true;
	}

	string(
		field: string,
		value: unknown,
		opts: { min?: number; max?: number; required?: boolean } = {},
	): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		if (typeof value !== 'string' && typeof value !== 'number')
			return this.fail(field, `must be text, got ${describe(value)}`);
		const length = String(value).length;
		if (
			opts.min !== undefined &&
			opts.max !== undefined &&
			(length < opts.min || length > opts.max)
		) {
			return this.fail(field, `must be ${opts.min} to ${opts.max} characters long, got ${length}`);
		}
		if (opts.max !== undefined && length > opts.max)
			return this.fail(field, `must be at most ${opts.max} characters long, got ${length}`);
		if (opts.min !== undefined && length < opts.min)
			return this.fail(field, `must be at least ${opts.min} characters long, got ${length}`);
		return this;
	}

	integer(
		field: string,
		value: unknown,
		opts: { min?: number; max?: number; required?: boolean } = {},
	): this {
		if (this.absentNumber(field, value, opts)) return this;
		const n = numberValue(value);
		// A whole number written with a fraction ("12.0") is refused as text: the text says more than the number.
		if (
			n === undefined ||
			!Number.isInteger(n) ||
			(typeof value === 'string' && value.includes('.'))
		) {
			return this.fail(field, `must be a whole number, got ${describe(value)}${commaHint(value)}`);
		}
		if (opts.min !== undefined && n < opts.min)
			return this.fail(field, `must be at least ${opts.min}, got ${n}`);
		if (opts.max !== undefined && n > opts.max)
			return this.fail(field, `must be at most ${opts.max}, got ${n}`);
		this.accepted(field, value, n);
		return this;
	}

	number(
		field: string,
		value: unknown,
		opts: { min?: number; maxDecimals?: number; required?: boolean } = {},
	): this {
		if (this.absentNumber(field, value, opts)) return this;
		const n = numberValue(value);
		if (n === undefined)
			return this.fail(field, `must be a number, got ${describe(value)}${commaHint(value)}`);
		if (opts.min !== undefined && n < opts.min)
			return this.fail(field, `must be at least ${opts.min}, got ${n}`);
		if (opts.maxDecimals !== undefined && decimals(value as number | string) > opts.maxDecimals) {
			return this.fail(
				field,
				`must have at most ${opts.maxDecimals} decimals, got ${String(value)}`,
			);
		}
		this.accepted(field, value, n);
		return this;
	}

	/**
	 * True when a number field has no value to check: absent (`undefined`, `null`) and optional, or reported as
	 * required. An empty or blank text is not absent: it would be sent, and a service reads it as it likes.
	 */
	private absentNumber(field: string, value: unknown, opts: { required?: boolean }): boolean {
		const blank = typeof value === 'string' && value.trim() === '';
		if (value !== undefined && value !== null && !blank) return false;
		if (opts.required) this.fail(field, 'is required');
		else if (blank) this.fail(field, `must be a number or left out, got ${describe(value)}`);
		return true;
	}

	oneOf(
		field: string,
		value: unknown,
		allowed: readonly (string | number)[],
		opts: { required?: boolean } = {},
	): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		// A list or an object is not one value, even when it reads as one (`String([2])` is "2").
		if (
			(typeof value !== 'string' && typeof value !== 'number') ||
			!allowed.some((a) => String(a) === String(value))
		) {
			return this.fail(
				field,
				`must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${describe(value)}`,
			);
		}
		return this;
	}

	matches(
		field: string,
		value: unknown,
		pattern: RegExp,
		what: string,
		opts: { required?: boolean } = {},
	): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		if (typeof value !== 'string' || !pattern.test(value))
			return this.fail(field, `${describe(value)} ${what}`);
		return this;
	}

	/**
	 * An e-mail address: one `@`, no white space, a domain with a dot between two of its characters, at most
	 * EMAIL_MAX_LENGTH characters (or `max`, when shorter). The length is checked first, and the rest in one scan:
	 * an address an AI agent wrote as `a@` and 30,000 dots costs no more than any other.
	 */
	email(field: string, value: unknown, opts: { required?: boolean; max?: number } = {}): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		const max = Math.min(opts.max ?? EMAIL_MAX_LENGTH, EMAIL_MAX_LENGTH);
		if (typeof value === 'string' && value.length > max)
			return this.fail(field, `must be at most ${max} characters long, got ${value.length}`);
		if (typeof value !== 'string' || !isEmailAddress(value))
			return this.fail(field, `${describe(value)} is not an e-mail address`);
		return this;
	}

	/** ISO 8601 date or date-time (YYYY-MM-DD, optionally with time and zone). */
	isoDate(field: string, value: unknown, opts: { required?: boolean } = {}): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		if (
			typeof value !== 'string' ||
			!ISO_DATE.test(value) ||
			!calendarDate(value.slice(0, 10)) ||
			Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value))
		) {
			return this.fail(
				field,
				`${describe(value)} is not an ISO 8601 date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)`,
			);
		}
		return this;
	}

	array(
		field: string,
		value: unknown,
		opts: { required?: boolean; min?: number } = {},
	): value is unknown[] {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return false;
		}
		if (!Array.isArray(value)) {
			this.fail(field, `must be a list, got ${describe(value)}`);
			return false;
		}
		if (opts.min !== undefined && value.length < opts.min) {
			this.fail(field, `must have at least ${opts.min} entr${opts.min === 1 ? 'y' : 'ies'}`);
			return false;
		}
		return true;
	}

	object(
		field: string,
		value: unknown,
		opts: { required?: boolean } = {},
	): value is Record<string, unknown> {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return false;
		}
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			this.fail(field, `must be an object, got ${describe(value)}`);
			return false;
		}
		return true;
	}

	get ok(): boolean {
		return this.problems.length === 0;
	}

	/** Throws one error naming the item and every field that is wrong; nothing has been sent. */
	throwIfFailed(
		node: INode,
		itemIndex: number,
		consequence = 'Nothing was sent to the service. Fix the value in the input or in the node parameter and run again.',
	): void {
		if (this.ok) return;
		const [first, ...rest] = this.problems;
		const error = itemError(
			node,
			itemIndex,
			first,
			(rest.length ? `Also wrong in this item:\n- ${rest.join('\n- ')}\n\n` : '') + consequence,
		);
		// With Continue On Fail the error item carries every problem, not only the message's first one.
		throw attachRecovery(error, { problems: [...this.problems] });
	}
}

/** The longest e-mail address a mail server takes: 254 characters (RFC 5321 §4.5.3.1.3, a path of 256 with its `<>`). */
const EMAIL_MAX_LENGTH = 254;

/** `local@domain`: no white space or second `@`, and the domain has a dot that neither starts nor ends it. */
function isEmailAddress(text: string): boolean {
	if (!/^[^\s@]+@[^\s@]+$/.test(text)) return false;
	const domain = text.slice(text.indexOf('@') + 1);
	return domain.slice(1, -1).includes('.');
}
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** True when `YYYY-MM-DD` names a day of the calendar (not 2026-02-30, which Date.parse rolls over). */
function calendarDate(ymd: string): boolean {
	const [y, m, d] = ymd.split('-').map(Number);
	const date = new Date(Date.UTC(y, m - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A decimal number written as text: digits, optionally a leading minus and a fraction ("12", "-3.50"). */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The number `value` stands for: a finite JSON number, or a text that is a plain decimal (`"12.50"`);
 * otherwise undefined. The one rule for reading a number a user gave: `Number()` alone would also read
 * hexadecimal (`"0x64"` is 100), exponents (`"1e2"`), surrounding spaces, an empty text (0) and a list of one
 * number (`Number([2])` is 2), none of which a receipt's amount or a node option should be.
 */
export function numberValue(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && PLAIN_DECIMAL.test(value)) return Number(value);
	return undefined;
}

/** A hint for a decimal comma ("1,50"), the usual way of writing decimals in Ecuador and Mexico. */
function commaHint(value: unknown): string {
	return typeof value === 'string' && /^-?\d+,\d+$/.test(value.trim())
		? ' (write decimals with a point, e.g. 1.50)'
		: '';
}

/** Replaces the text `was` at `path` (`a.b[0].c`) of `root` by `value`; does nothing when the path leads elsewhere. */
function replaceAt(root: IDataObject, path: string, was: string, value: number): void {
	const keys = path.match(/[^.[\]]+/g) ?? [];
	let target: unknown = root;
	for (const key of keys.slice(0, -1)) {
		if (!target || typeof target !== 'object' || !Object.hasOwn(target, key)) return;
		target = (target as Record<string, unknown>)[key];
	}
	const last = keys[keys.length - 1];
	if (
		target &&
		typeof target === 'object' &&
		last !== undefined &&
		(target as Record<string, unknown>)[last] === was
	) {
		(target as Record<string, unknown>)[last] = value;
	}
}

export function isMissing(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

export function decimals(value: number | string): number {
	const text = typeof value === 'number' ? numberToPlain(value) : value.trim();
	const dot = text.indexOf('.');
	return dot < 0 ? 0 : text.length - dot - 1;
}

function numberToPlain(n: number): string {
	const s = String(n);
	if (!/e/i.test(s)) return s;
	return trimEnd(n.toFixed(20), '0');
}

/** Parses a JSON parameter that may arrive as text or as an already-resolved object. */
export function parseJsonParameter(
	node: INode,
	itemIndex: number,
	field: string,
	value: unknown,
): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new NodeOperationError(
			node,
			`${field}: is not valid JSON (${(error as Error).message})`,
			{
				itemIndex,
				description:
					'Nothing was sent to the service. Check the JSON for a missing comma, quote or bracket.',
			},
		);
	}
}

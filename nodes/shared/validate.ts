import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Collects every problem of one item's input before anything is sent, then reports them together:
 * `[item 2] client.email: "abc" is not an e-mail address`. Checks skip absent values unless they are
 * `required` checks, so optional fields are validated only when given. Warnings do not stop the request;
 * the caller puts them in the output.
 */
export class Checker {
	readonly problems: string[] = [];
	readonly warnings: string[] = [];

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

	string(field: string, value: unknown, opts: { min?: number; max?: number; required?: boolean } = {}): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		if (typeof value !== 'string' && typeof value !== 'number') return this.fail(field, `must be text, got ${describe(value)}`);
		const length = String(value).length;
		if (opts.min !== undefined && opts.max !== undefined && (length < opts.min || length > opts.max)) {
			return this.fail(field, `must be ${opts.min} to ${opts.max} characters long, got ${length}`);
		}
		if (opts.max !== undefined && length > opts.max) return this.fail(field, `must be at most ${opts.max} characters long, got ${length}`);
		if (opts.min !== undefined && length < opts.min) return this.fail(field, `must be at least ${opts.min} characters long, got ${length}`);
		return this;
	}

	integer(field: string, value: unknown, opts: { min?: number; max?: number; required?: boolean } = {}): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
		if (typeof n !== 'number' || !Number.isInteger(n)) return this.fail(field, `must be a whole number, got ${describe(value)}`);
		if (opts.min !== undefined && n < opts.min) return this.fail(field, `must be at least ${opts.min}, got ${n}`);
		if (opts.max !== undefined && n > opts.max) return this.fail(field, `must be at most ${opts.max}, got ${n}`);
		return this;
	}

	number(field: string, value: unknown, opts: { min?: number; maxDecimals?: number; required?: boolean } = {}): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof n !== 'number' || !Number.isFinite(n)) return this.fail(field, `must be a number, got ${describe(value)}`);
		if (opts.min !== undefined && n < opts.min) return this.fail(field, `must be at least ${opts.min}, got ${n}`);
		if (opts.maxDecimals !== undefined && decimals(value as number | string) > opts.maxDecimals) {
			return this.fail(field, `must have at most ${opts.maxDecimals} decimals, got ${String(value)}`);
		}
		return this;
	}

	oneOf(field: string, value: unknown, allowed: readonly (string | number)[], opts: { required?: boolean } = {}): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		if (!allowed.some((a) => String(a) === String(value))) {
			return this.fail(field, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${describe(value)}`);
		}
		return this;
	}

	matches(field: string, value: unknown, pattern: RegExp, what: string, opts: { required?: boolean } = {}): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		if (typeof value !== 'string' || !pattern.test(value)) return this.fail(field, `${describe(value)} ${what}`);
		return this;
	}

	email(field: string, value: unknown, opts: { required?: boolean; max?: number } = {}): this {
		this.matches(field, value, EMAIL, 'is not an e-mail address', opts);
		if (opts.max !== undefined) this.string(field, value, { max: opts.max });
		return this;
	}

	/** ISO 8601 date or date-time (YYYY-MM-DD, optionally with time and zone). */
	isoDate(field: string, value: unknown, opts: { required?: boolean } = {}): this {
		if (isMissing(value)) {
			if (opts.required) this.fail(field, 'is required');
			return this;
		}
		if (typeof value !== 'string' || !ISO_DATE.test(value) || !calendarDate(value.slice(0, 10)) || Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value))) {
			return this.fail(field, `${describe(value)} is not an ISO 8601 date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)`);
		}
		return this;
	}

	array(field: string, value: unknown, opts: { required?: boolean; min?: number } = {}): value is unknown[] {
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

	object(field: string, value: unknown, opts: { required?: boolean } = {}): value is Record<string, unknown> {
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
	throwIfFailed(node: INode, itemIndex: number): void {
		if (this.ok) return;
		const [first, ...rest] = this.problems;
		throw new NodeOperationError(node, `${first}`, {
			itemIndex,
			description:
				(rest.length ? `Also wrong in this item:\n- ${rest.join('\n- ')}\n\n` : '') +
				'Nothing was sent to the service. Fix the value in the input or in the node parameter and run again.',
		});
	}
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** True when `YYYY-MM-DD` names a day of the calendar (not 2026-02-30, which Date.parse rolls over). */
function calendarDate(ymd: string): boolean {
	const [y, m, d] = ymd.split('-').map(Number);
	const date = new Date(Date.UTC(y, m - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function isMissing(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function decimals(value: number | string): number {
	const text = typeof value === 'number' ? numberToPlain(value) : value.trim();
	const dot = text.indexOf('.');
	return dot < 0 ? 0 : text.length - dot - 1;
}

function numberToPlain(n: number): string {
	const s = String(n);
	if (!/e/i.test(s)) return s;
	return n.toFixed(20).replace(/0+$/, '');
}

export function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
	if (typeof value === 'object') return Array.isArray(value) ? 'a list' : value === null ? 'null' : 'an object';
	return String(value);
}

/** Parses a JSON parameter that may arrive as text or as an already-resolved object. */
export function parseJsonParameter(node: INode, itemIndex: number, field: string, value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new NodeOperationError(node, `${field}: is not valid JSON (${(error as Error).message})`, {
			itemIndex,
			description: 'Nothing was sent to the service. Check the JSON for a missing comma, quote or bracket.',
		});
	}
}

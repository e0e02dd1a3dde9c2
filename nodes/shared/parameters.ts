import type { IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

/** A parameter whose whole value is the expression `{{ $json.<field> }}`, the field a plain JavaScript name. */
const ITEM_FIELD = /^=\{\{\s*\$json\.([A-Za-z_$][\w$]*)\s*\}\}$/;

/**
 * The value of the top-level parameter `name` for item `i`, as `getNodeParameter` gives it. The form's most common
 * mapping, `{{ $json.<field> }}` over a field of the input item that holds text, is that text, read from the item
 * without n8n's expression engine: n8n 2.x evaluates every expression in an isolate, about a millisecond of the
 * process's time each. Measured in n8n 2.41.1 (process.cpuUsage over 300 questions), the SAT status check, with
 * four such fields, spent 8.3 ms of CPU per CFDI with them evaluated and 4.2 ms with them read. n8n gives the same
 * text (its `$json` is the item's JSON, a text comes out as it is). Any other value — another expression, a field
 * that is not text, no such field — goes through `getNodeParameter`, so its errors and conversions stay n8n's.
 */
export function itemParameter(
	this: IExecuteFunctions,
	name: string,
	i: number,
	fallback: NodeParameterValueType,
): unknown {
	const raw = this.getNodeParameter(name, i, fallback, { rawExpressions: true });
	const field = typeof raw === 'string' ? ITEM_FIELD.exec(raw)?.[1] : undefined;
	if (field !== undefined) {
		const json = this.getInputData()[i]?.json;
		const value = json && Object.hasOwn(json, field) ? json[field] : undefined;
		if (typeof value === 'string') return value;
	}
	return this.getNodeParameter(name, i, fallback);
}

/**
 * A reader of the parameter at `path` (a dotted path into collections, e.g. `options.registrationDate`) for any
 * item, for an operation that reads it for thousands of items (a declaration): a fixed value is read once and
 * given for every item; `{{ $json.<field> }}` over text is read from the item as `itemParameter` does; any other
 * expression goes to `getNodeParameter` for the item, so its errors and conversions stay n8n's.
 */
export function parameterReader(
	this: IExecuteFunctions,
	path: string,
	fallback: NodeParameterValueType,
): (i: number) => unknown {
	const raw = this.getNodeParameter(path, 0, fallback, { rawExpressions: true });
	if (typeof raw === 'string' && raw.startsWith('=')) {
		const field = ITEM_FIELD.exec(raw)?.[1];
		const items = this.getInputData();
		return (i) => {
			const json = field === undefined ? undefined : items[i]?.json;
			const value =
				json && Object.hasOwn(json, field as string) ? json[field as string] : undefined;
			return typeof value === 'string' ? value : this.getNodeParameter(path, i, fallback);
		};
	}
	const value = this.getNodeParameter(path, 0, fallback);
	return () => value;
}

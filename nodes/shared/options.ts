import type {
	IExecuteFunctions,
	IHookFunctions,
	INode,
	INodeProperties,
	INodePropertyOptions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { describe } from './text';
import { numberValue } from './validate';

/** Where a number option is read from. */
export interface NumberOptionPlace {
	/** Inside the node's "Options" collection (`options.<name>`), rather than a field of its own. */
	inOptions?: boolean;
	/** Read once per execution, from the first item (it shapes the whole execution, e.g. a pool's size). */
	once?: boolean;
}

/**
 * The value of a number option (Poll Interval, Timeout, Parallel Requests, Limit…) as the node's form
 * describes it: the property's own `minValue`, `maxValue` and `numberPrecision` (0: a whole number) are the
 * rule, so the form and the run agree. A value an expression made — `"5s"`, `0.5` parallel checks, `NaN` —
 * stops with an error naming the option by its label, before anything is sent, instead of a spin or a hang.
 * A number written as plain decimal text (`"5"`) is read as that number (shared/validate.ts, numberValue).
 */
export function numberOption(
	this: IExecuteFunctions,
	property: INodeProperties,
	i: number,
	place: NumberOptionPlace = {},
): number {
	const item = place.once ? 0 : i;
	const raw = this.getNodeParameter(
		place.inOptions ? `options.${property.name}` : property.name,
		item,
		property.default,
	);
	return checkedNumber(this.getNode(), property, raw, place, i);
}

/**
 * The same rule for a trigger's number option, read where there are no items: at its activation (where a
 * wrong value stops the activation, so the user sees it) and at each delivery.
 */
export function triggerNumberOption(
	this: IHookFunctions | IWebhookFunctions,
	property: INodeProperties,
	place: Pick<NumberOptionPlace, 'inOptions'> = {},
): number {
	const raw = this.getNodeParameter(
		place.inOptions ? `options.${property.name}` : property.name,
		property.default,
	);
	return checkedNumber(this.getNode(), property, raw, place);
}

/** `raw` as the option's number, or the error that names the option (item `i`, when read for an item). */
function checkedNumber(
	node: INode,
	property: INodeProperties,
	raw: unknown,
	place: NumberOptionPlace,
	i?: number,
): number {
	const { minValue = -Infinity, maxValue = Infinity, numberPrecision } = property.typeOptions ?? {};
	const whole = numberPrecision === 0;
	const n = numberValue(raw);
	if (n !== undefined && (!whole || Number.isInteger(n)) && n >= minValue && n <= maxValue)
		return n;

	const label = place.inOptions ? `Options → ${property.displayName}` : property.displayName;
	const kind = whole ? 'a whole number' : 'a number';
	const range = Number.isFinite(maxValue)
		? `from ${minValue} to ${maxValue}`
		: `of at least ${minValue}`;
	const once = place.once ? ' (read once per execution, from the first item)' : '';
	throw new NodeOperationError(
		node,
		`${label}: must be ${kind} ${range}, got ${describe(raw)}${once}`,
		{
			// Read once per execution (or by a trigger), it belongs to no item of its own: the router then names none.
			...(place.once || i === undefined ? {} : { itemIndex: i }),
			description: `${place.once ? 'It applies to every item of the execution. ' : ''}Nothing was sent to the service. Set ${label} to ${kind} ${range}${whole ? '' : ' (a point for decimals)'}; an expression must give a number, not text such as "5s".`,
		},
	);
}

/**
 * The entry of a required dropdown that nothing was chosen in yet: its default (`''`) must be one of its choices,
 * or n8n's editor marks the field red at rest ("The value "" is not supported!"). The item is refused before
 * anything is sent until a real choice is made (the field's check says so).
 */
export const notChosen = (what: string): INodePropertyOptions => ({
	name: 'Not Chosen Yet (Required)',
	value: '',
	description: `Choose ${what}: an item without one is refused before anything is sent`,
});

import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Reads a resource locator's value; an empty one stops the item before any request. */
export function requireId(this: IExecuteFunctions, parameter: string, i: number): string {
	const value = String(this.getNodeParameter(parameter, i, '', { extractValue: true }) ?? '').trim();
	if (!value) {
		throw new NodeOperationError(this.getNode(), `${parameter}: is required`, {
			itemIndex: i,
			description: `Choose the ${parameter} from the list or enter its ID. Nothing was sent.`,
		});
	}
	return value;
}

/** Reads a list of IDs given as a multi-select, a list from an expression, or comma-separated text. */
export function readIdList(this: IExecuteFunctions, parameter: string, i: number): string[] {
	const raw = this.getNodeParameter(parameter, i, []) as unknown;
	const list = (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
		.map((v) => String(v).trim())
		.filter(Boolean);
	if (list.length === 0) {
		throw new NodeOperationError(this.getNode(), `${parameter}: choose at least one`, {
			itemIndex: i,
			description: 'Pick from the list, or give the IDs as a list or comma-separated text. Nothing was sent.',
		});
	}
	return [...new Set(list)];
}

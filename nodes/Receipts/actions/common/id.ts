import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { segmentProblem } from '../../../shared/path';
import { Checker } from '../../../shared/validate';

export const receiptIdField = (description: string): INodeProperties => ({
	displayName: 'Receipt ID',
	name: 'receiptId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 5e4b3f2c9a8d4c7b8f1e2d3c4b5a6978',
	description,
});

/**
 * The receipt ID of item `i` (the `id` the service returned at creation); throws when empty or when it
 * cannot be part of an address (the one rule of shared/path.ts: `..`, `/`, `?`, `#`, `%`, spaces…).
 */
export function readReceiptId(this: IExecuteFunctions, i: number): string {
	const id = String(this.getNodeParameter('receiptId', i, '') ?? '').trim();
	const check = new Checker();
	check.string('receiptId', id, { required: true });
	const problem = id ? segmentProblem(id) : undefined;
	if (problem) check.fail('receiptId', problem);
	check.throwIfFailed(this.getNode(), i);
	return id;
}

import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { fixedPath, path } from '../../../shared/path';
import { concurrencyOption, type OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { readReceiptId, receiptIdField } from './id';
import { advisories } from '../../domain/outcome';
import { present, requestTimeoutOption, simplifyField } from './output';

/** Get operations: a receipt by ID (read: retried, may run several items at once). */
export const getProperties = (what: string): INodeProperties[] => [
	receiptIdField(`ID of the ${what} (the id returned when it was issued)`),
	simplifyField,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [concurrencyOption, requestTimeoutOption],
	},
];

export async function getReceipt(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	base: string,
): Promise<OperationResult> {
	const id = readReceiptId.call(this, i);
	const receipt = await ctx.api.read(path`${fixedPath(base)}/${id}`, i);
	return present.call(this, i, receipt, advisories(receipt));
}

import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { fixedPath, path } from '../../../shared/path';
import { concurrencyOption, type OperationModule } from '../../../shared/router';
import { advisories } from '../../domain/outcome';
import { RECEIPT_KINDS } from '../../domain/kinds';
import type { ReceiptsContext } from '../../transport';
import { readReceiptId, receiptIdField } from '../common/id';
import { present, requestTimeoutOption, simplifyField } from '../common/output';
import type { ReceiptKindRow, ReceiptOperation } from './types';

/**
 * Get of a receipt kind: `GET <path>/{id}` (the service's public documentation, one per kind; receipts service
 * for waybills and ATS retentions), the receipt with its state, authorization and outcome (common/output.ts). A
 * read: retried, several items at once (Options → Parallel Requests).
 */
export function get(receipt: ReceiptKindRow): ReceiptOperation {
	return {
		option: {
			name: 'Get',
			value: 'get',
			description: `Get ${receipt.a} with its state and authorization`,
			action: `Get ${receipt.a}`,
		},
		...getReceipt(receipt.resource, receipt.path, RECEIPT_KINDS[receipt.kind].name),
	};
}

/** `GET <base>/{id}` shown as `resource` → Get: a receipt kind's Get, and Document → Get (`/edocs`, any kind). */
export function getReceipt(
	resource: string,
	base: string,
	what: string,
): OperationModule<ReceiptsContext> {
	const properties: INodeProperties[] = [
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
	return {
		kind: 'read',
		description: updateDisplayOptions(
			{ show: { resource: [resource], operation: ['get'] } },
			properties,
		),
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			const id = readReceiptId.call(this, i);
			const receipt = await ctx.api.read(path`${fixedPath(base)}/${id}`, i);
			return present.call(this, i, receipt, advisories(receipt));
		},
	};
}

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { fixedPath } from '../../../shared/path';
import { FormChecker } from '../../domain/labels';
import { RECEIPT_KINDS } from '../../domain/kinds';
import type { ReceiptsContext } from '../../transport';
import { refuseProductionXmlForAgent } from '../common/agent';
import {
	idempotencyKeyOption,
	readIdempotencyKey,
	refuseOtherInvoice,
} from '../common/idempotency';
import { lostAnswer, sentIdsOfXml } from '../common/recovery';
import { signingFields } from '../common/signing';
import { afterIssue, readWaitSettings, type WaitSettings } from '../common/wait';
import { readXml, xmlFields, type ReceiptXml } from '../common/xml';
import type { ReceiptKindRow, ReceiptOperation } from './types';

/** What Issue From XML knows of an item before it sends anything. */
type CheckedXml = ReceiptXml & { wait: WaitSettings | undefined; idempotencyKey?: string };

/**
 * The item's XML, read by the package's XML reader and checked (common/xml.ts); a production receipt refused when an AI agent runs the node without
 * permission (common/agent.ts); Wait for Final State; the Idempotency-key where the kind has one (invoices).
 */
async function checkXml(
	this: IExecuteFunctions,
	i: number,
	receipt: ReceiptKindRow,
): Promise<CheckedXml> {
	const what = RECEIPT_KINDS[receipt.kind].name;
	const { xml, root } = await readXml.call(this, i);
	refuseProductionXmlForAgent.call(this, i, { xml, root }, `issue this ${what}`);
	const wait = readWaitSettings.call(this, i);
	if (!receipt.idempotent) return { xml, root, wait };
	// The form's wording for the option, as Issue words it (domain/labels.ts).
	const check = new FormChecker(receipt.kind, 'json');
	const idempotencyKey = readIdempotencyKey.call(this, i, check);
	check.throwIfFailed(this.getNode(), i);
	return { xml, root, wait, idempotencyKey };
}

/**
 * Issue From XML of a receipt kind: `POST <path>/issue/xml` with `{xml}`, signed (the service's public
 * documentation for each kind). Checked once before any item is sent, and never sent again once it may have
 * been processed: a lost answer names the receipt by what its XML says (common/recovery.ts) — except an
 * invoice, sent with an Idempotency-key and re-sent with it (common/idempotency.ts).
 */
export function issueFromXml(receipt: ReceiptKindRow): ReceiptOperation {
	const { resource, path } = receipt;
	const what = RECEIPT_KINDS[receipt.kind].name;
	return {
		option: {
			name: 'Issue From XML',
			value: 'issueFromXml',
			description: `Issue ${receipt.a} from its XML`,
			action: `Issue ${receipt.a} from XML`,
		},
		kind: 'parallelWrite',
		overlaps: true,
		description: updateDisplayOptions(
			{ show: { resource: [resource], operation: ['issueFromXml'] } },
			[...xmlFields, ...signingFields(receipt.idempotent ? [idempotencyKeyOption] : [])],
		),
		async validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number) {
			return await checkXml.call(this, i, receipt);
		},
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number, checked?: CheckedXml) {
			const { xml, root, wait, idempotencyKey } =
				checked ?? (await checkXml.call(this, i, receipt));
			const sent = { ...sentIdsOfXml(what, root), idempotencyKey };
			let answer: IDataObject;
			try {
				answer = await ctx.api.sign(fixedPath(`${path}/issue/xml`), i, {
					body: { xml },
					idempotencyKey,
				});
			} catch (error) {
				throw lostAnswer(error, sent);
			}
			refuseOtherInvoice.call(this, i, idempotencyKey, sent.secuencial, answer);
			return await afterIssue.call(this, ctx, i, answer, wait, { record: true });
		},
	};
}

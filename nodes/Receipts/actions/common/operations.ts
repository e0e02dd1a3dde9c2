import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import { RECEIPT_KINDS, type ReceiptKind } from '../../domain/schemas';
import type { ReceiptsContext } from '../../transport';
import { getProperties, getReceipt } from './get';
import { issueFromXmlProperties, issueProperties, issueReceipt, issueXml, prepareReceipt, prepareXml } from './issue';
import { reissueProperties, reissueReceipt, validateReissue } from './reissue';

/**
 * The operations every receipt kind has, built from what tells the kinds apart: their resource, path and
 * fields. Each `<operation>.operation.ts` file exports what one of these returns, so a kind's Issue works
 * exactly like every other kind's (validation, access key, Wait for Final State, recovery).
 */

export type FromFields = (this: IExecuteFunctions, i: number) => IDataObject;

export interface ReceiptSpec {
	/** The node's resource value, e.g. `invoice`. */
	resource: string;
	kind: ReceiptKind;
	/** Path of the kind, e.g. `/invoices`. */
	base: string;
	/** A complete body: the JSON field's placeholder (its default is this with every value emptied). */
	example: IDataObject;
	/** Fields of the Fields input mode, and their reader. */
	fields: INodeProperties[];
	read: FromFields;
}

type Execute = (this: IExecuteFunctions, ctx: ReceiptsContext, i: number) => Promise<OperationResult | Deferred>;
type Validate = (this: IExecuteFunctions, ctx: ReceiptsContext, i: number) => void | Promise<void>;

const shownFor = (resource: string, operation: string, properties: INodeProperties[]) => updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, properties);

/** Issue (`POST <base>/issue`, signed). `operation`: another operation name on the same path (Issue With Reimbursement). */
export function issueOperation(spec: ReceiptSpec, operation = 'issue'): { kind: 'parallelWrite'; description: INodeProperties[]; validate: Validate; execute: Execute } {
	return {
		kind: 'parallelWrite',
		description: shownFor(spec.resource, operation, issueProperties(spec.example, spec.fields)),
		async validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number) {
			await prepareReceipt.call(this, i, spec.kind, spec.read);
		},
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await issueReceipt.call(this, ctx, i, spec.kind, `${spec.base}/issue`, spec.read);
		},
	};
}

/** Issue From XML (`POST <base>/issue/xml` with `{xml}`, signed). */
export function issueFromXmlOperation(spec: Pick<ReceiptSpec, 'resource' | 'kind' | 'base'>): { kind: 'parallelWrite'; description: INodeProperties[]; validate: Validate; execute: Execute } {
	return {
		kind: 'parallelWrite',
		description: shownFor(spec.resource, 'issueFromXml', issueFromXmlProperties),
		async validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number) {
			await prepareXml.call(this, i, RECEIPT_KINDS[spec.kind].name);
		},
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await issueXml.call(this, ctx, i, `${spec.base}/issue/xml`, RECEIPT_KINDS[spec.kind].name);
		},
	};
}

/** Reissue (`POST <base>/{id}/reissue`, signed) of a receipt in NO AUTORIZADO or DEVUELTO. */
export function reissueOperation(spec: ReceiptSpec): { kind: 'parallelWrite'; description: INodeProperties[]; validate: Validate; execute: Execute } {
	return {
		kind: 'parallelWrite',
		description: shownFor(spec.resource, 'reissue', reissueProperties(spec.kind, spec.example, spec.fields)),
		async validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number) {
			await validateReissue.call(this, i, spec.kind, spec.read);
		},
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await reissueReceipt.call(this, ctx, i, spec.kind, spec.base, spec.read);
		},
	};
}

/** Get (`GET <base>/{id}`): a read, several items at once. */
export function getOperation(resource: string, base: string, what: string): { kind: 'read'; description: INodeProperties[]; execute: (this: IExecuteFunctions, ctx: ReceiptsContext, i: number) => Promise<OperationResult> } {
	return {
		kind: 'read',
		description: shownFor(resource, 'get', getProperties(what)),
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await getReceipt.call(this, ctx, i, base);
		},
	};
}

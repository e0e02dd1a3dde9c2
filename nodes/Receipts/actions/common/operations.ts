import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import { RECEIPT_KINDS, type ReceiptKind } from '../../domain/schemas';
import type { ReceiptsContext } from '../../transport';
import type { FormVersion } from './fields';
import { getProperties, getReceipt } from './get';
import {
	issueFromXmlProperties,
	issueOutputProperties,
	issueReceipt,
	issueXml,
	prepareReceipt,
	prepareXml,
	previewOptions,
	previewReceipt,
	receiptProperties,
} from './issue';
import { reissueProperties, reissueReceipt, validateReissue } from './reissue';
import type { FromFields } from './receiptInput';

/**
 * The operations every receipt kind has, built from what tells the kinds apart: their resource, path and
 * fields. Each `<operation>.operation.ts` file exports what one of these returns, so a kind's Issue works
 * exactly like every other kind's (validation, access key, Wait for Final State, recovery).
 */

export interface ReceiptSpec {
	/** The node's resource value, e.g. `invoice`. */
	resource: string;
	kind: ReceiptKind;
	/** Path of the kind, e.g. `/invoices`. */
	base: string;
	/** A complete body: the JSON field's placeholder (its default is this with every value emptied). */
	example: IDataObject;
	/** Fields of the Fields input mode in each form version (see fields.ts), and their reader. */
	fields: (v: FormVersion) => INodeProperties[];
	read: FromFields;
}

type Execute = (
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
) => Promise<OperationResult | Deferred>;
type Validate = (this: IExecuteFunctions, ctx: ReceiptsContext, i: number) => void | Promise<void>;

const shownFor = (resource: string, operation: string | string[], properties: INodeProperties[]) =>
	updateDisplayOptions(
		{
			show: { resource: [resource], operation: Array.isArray(operation) ? operation : [operation] },
		},
		properties,
	);

/**
 * Issue (`POST <base>/issue`, signed). `operation`: another operation name on the same path (Issue With
 * Reimbursement); `preview`: the Preview operation that reads the same receipt properties, so switching between
 * the two keeps every value the user filled in.
 */
export function issueOperation(
	spec: ReceiptSpec,
	operation = 'issue',
	preview = 'preview',
): { kind: 'parallelWrite'; description: INodeProperties[]; validate: Validate; execute: Execute } {
	return {
		kind: 'parallelWrite',
		description: [
			...shownFor(
				spec.resource,
				[operation, preview],
				receiptProperties(spec.example, spec.fields),
			),
			...shownFor(spec.resource, operation, issueOutputProperties()),
		],
		async validate(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			await prepareReceipt.call(this, ctx, i, spec.kind, spec.read);
		},
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await issueReceipt.call(this, ctx, i, spec.kind, `${spec.base}/issue`, spec.read);
		},
	};
}

/**
 * Preview: the body Issue would send, and its warnings or problems, as output; nothing is sent (only the tax-rate
 * catalogs are read). Its receipt properties are Issue's (see issueOperation); it adds its own options. No
 * `validate`: a bad row is an output item with its problems, not an error that stops the batch.
 */
export function previewOperation(
	spec: ReceiptSpec,
	operation = 'preview',
): { description: INodeProperties[]; execute: Execute } {
	return {
		description: shownFor(spec.resource, operation, [previewOptions]),
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await previewReceipt.call(this, ctx, i, spec.kind, spec.read);
		},
	};
}

/** Issue From XML (`POST <base>/issue/xml` with `{xml}`, signed). */
export function issueFromXmlOperation(spec: Pick<ReceiptSpec, 'resource' | 'kind' | 'base'>): {
	kind: 'parallelWrite';
	description: INodeProperties[];
	validate: Validate;
	execute: Execute;
} {
	return {
		kind: 'parallelWrite',
		description: shownFor(spec.resource, 'issueFromXml', issueFromXmlProperties),
		async validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number) {
			await prepareXml.call(this, i, RECEIPT_KINDS[spec.kind].name);
		},
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await issueXml.call(
				this,
				ctx,
				i,
				`${spec.base}/issue/xml`,
				RECEIPT_KINDS[spec.kind].name,
			);
		},
	};
}

/** Reissue (`POST <base>/{id}/reissue`, signed) of a receipt in NO AUTORIZADO or DEVUELTO. */
export function reissueOperation(spec: ReceiptSpec): {
	kind: 'parallelWrite';
	description: INodeProperties[];
	validate: Validate;
	execute: Execute;
} {
	return {
		kind: 'parallelWrite',
		description: shownFor(
			spec.resource,
			'reissue',
			reissueProperties(spec.kind, spec.example, spec.fields),
		),
		async validate(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			await validateReissue.call(this, ctx, i, spec.kind, spec.read);
		},
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await reissueReceipt.call(this, ctx, i, spec.kind, spec.base, spec.read);
		},
	};
}

/** Get (`GET <base>/{id}`): a read, several items at once. */
export function getOperation(
	resource: string,
	base: string,
	what: string,
): {
	kind: 'read';
	description: INodeProperties[];
	execute: (this: IExecuteFunctions, ctx: ReceiptsContext, i: number) => Promise<OperationResult>;
} {
	return {
		kind: 'read',
		description: shownFor(resource, 'get', getProperties(what)),
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await getReceipt.call(this, ctx, i, base);
		},
	};
}

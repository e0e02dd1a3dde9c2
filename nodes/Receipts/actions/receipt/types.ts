import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { OperationModule } from '../../../shared/router';
import type { ReceiptKind } from '../../domain/kinds';
import type { ReceiptsContext } from '../../transport';
import type { FormVersion } from '../common/fields/form';
import type { FromFields } from '../common/receiptInput';
import type { ReceiptsMap } from '../node.type';

/**
 * What every receipt operation (this folder) is built from: a receipt kind's row of the table in
 * ../receiptKinds.ts, and what an operation of one kind is.
 */

/** The Fields form of a receipt kind (<kind>/fields.ts), and the kind it is checked as (domain/schemas.ts). */
export interface ReceiptForm {
	kind: ReceiptKind;
	/** A complete body: the JSON field's placeholder (its default is this with every value emptied). */
	example: IDataObject;
	/** The fields of the Fields input mode in each form version (common/fields/), and their reader. */
	fields: (v: FormVersion) => INodeProperties[];
	read: FromFields;
}

/** The resources of the node that are receipt kinds. */
export type ReceiptResource = Exclude<keyof ReceiptsMap, 'document' | 'webhook'>;

/** One receipt kind as the node offers it: what tells it apart from the others. */
export interface ReceiptKindRow extends ReceiptForm {
	resource: ReceiptResource;
	/** Where the service keeps it, e.g. `/credit-notes`. */
	path: string;
	/** The kind with its article, in the Operation selector's words: "a credit note". */
	a: string;
	/**
	 * Its issue requests carry an Idempotency-key, and a lost answer is re-sent with it (common/idempotency.ts):
	 * only where the service documents the key (invoices). Every other kind is never sent twice.
	 */
	idempotent?: true;
}

/** An entry of an Operation selector (name, value, description, action). */
export interface Offered {
	name: string;
	value: string;
	description: string;
	action: string;
}

/** An operation of one receipt kind: what the router runs, and its entry in the kind's Operation selector. */
export type ReceiptOperation = OperationModule<ReceiptsContext> & { option: Offered };

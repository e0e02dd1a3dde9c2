import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { attachRecovery, mayHaveBeenProcessed, reword } from '../../../shared/errors';
import type { XmlElement } from '../../../shared/xml';
import { child, childText } from '../../../shared/xml';

/**
 * The words and fields a user gets when something fails around a receipt that exists, or may exist.
 * Issuing is not idempotent: a second run of the same item issues a second receipt. So:
 * - once the service accepted an issue (its answer carries `id` or `clave_acceso`), every later failure of
 *   the item carries the id, the access key and what to do (`document_exists`);
 * - when the answer of an issue request was lost (the connection broke, a 5xx, a timeout: see
 *   mayHaveBeenProcessed), the item says the receipt may exist, with the `secuencial` and any `clave_acceso`
 *   it sent (`document_may_exist`); an invoice, sent with an Idempotency-key and re-sent with it while its
 *   time lasted (idempotency.ts), also says the key, which makes running the item again safe.
 * With Continue On Fail these fields are in the error item's JSON (shared/created.ts), so a workflow can
 * route them.
 */

/** What identifies a receipt that was issued. */
export interface IssuedIds {
	id?: string;
	clave_acceso?: string;
}

/** What an issue request sent that identifies the receipt, for when its answer is lost. */
interface SentIds {
	/** e.g. "retention" */
	what: string;
	secuencial?: string | number;
	clave_acceso?: string;
	ruc?: string;
	/** establishment-emission point, e.g. 001-002 */
	series?: string;
	/** The Idempotency-key it carried (invoices, common/idempotency.ts). */
	idempotencyKey?: string;
}

export function followUp(ids: IssuedIds): string {
	if (ids.id)
		return `This receipt exists: do not issue it again; follow it with Document → Get (ID ${ids.id}).`;
	if (ids.clave_acceso)
		return `This receipt exists: do not issue it again; look it up in the receipts service by its access key ${ids.clave_acceso}.`;
	return 'This receipt exists: do not issue it again; look it up in the receipts service by its secuencial and issuer.';
}

function describeIds(ids: IssuedIds): string {
	return [
		ids.id ? `ID ${ids.id}` : undefined,
		ids.clave_acceso ? `clave_acceso ${ids.clave_acceso}` : undefined,
	]
		.filter(Boolean)
		.join(', ');
}

/**
 * Turns a failure that happened after the receipt was created into one that says so: message, description
 * and the fields of the error item.
 */
export function afterCreated(error: unknown, ids: IssuedIds, state?: string): unknown {
	const instruction = followUp(ids);
	reword(error, `Receipt ${describeIds(ids)} exists, but following it failed: `, instruction);
	return attachRecovery(error, {
		document_exists: true,
		id: ids.id,
		clave_acceso: ids.clave_acceso,
		estado: state,
		instruction,
	});
}

/** When an issue request may have been processed although its answer was lost: says so, with what was sent. */
export function lostAnswer(error: unknown, sent: SentIds): unknown {
	if (!mayHaveBeenProcessed(error)) return error;
	const where = [
		sent.secuencial !== undefined ? `secuencial ${String(sent.secuencial)}` : undefined,
		sent.series ? `series ${sent.series}` : undefined,
		sent.ruc ? `issuer ${sent.ruc}` : undefined,
		sent.clave_acceso ? `access key ${sent.clave_acceso}` : undefined,
	]
		.filter(Boolean)
		.join(', ');
	const instruction = sent.idempotencyKey
		? `The ${sent.what} may have been issued: its answer was lost, also when sent again with the same Idempotency-key within the request's time. To get its answer without issuing it twice, run this item again with Options → Idempotency Key set to ${sent.idempotencyKey} (the receipts service answers a key it has seen with its first answer), or check in the receipts service (${where || 'by its data'}).`
		: `The ${sent.what} may have been issued: the answer was lost. Do not issue it again before you have checked in the receipts service (${where || 'by its data'}).` +
			(sent.clave_acceso
				? ' It carried its access key, so a second issue with the same key is refused by the tax authority instead of authorized twice.'
				: ' Options → Access Key → Reproducible makes a second run carry the same key, so the tax authority refuses a duplicate.');
	reword(error, `The ${sent.what} may exist: `, instruction);
	return attachRecovery(error, {
		document_may_exist: true,
		secuencial: sent.secuencial,
		clave_acceso: sent.clave_acceso,
		idempotency_key: sent.idempotencyKey,
		instruction,
	});
}

/** The receipt could not be signed: the certificate password in the credential was refused. */
export function signingFailed(
	node: INode,
	i: number,
	ids: IssuedIds,
	failure: string,
): NodeOperationError {
	const error = new NodeOperationError(
		node,
		`Receipt ${describeIds(ids)} could not be signed: the receipts service refused the Certificate Password of the Receipts credential (${failure})`,
		{
			itemIndex: i,
			description:
				`Correct the Certificate Password in the Receipts credential (the password of the signing certificate), then sign this receipt again with Document → Authorize${ids.id ? ` (ID ${ids.id})` : ''}. ` +
				'It exists in state CREADO: do not issue it again.',
		},
	);
	return attachRecovery(error, {
		document_exists: true,
		id: ids.id,
		clave_acceso: ids.clave_acceso,
		estado: 'CREADO',
		signing_failed: true,
		instruction: `Correct the Certificate Password, then sign it again with Document → Authorize${ids.id ? ` (ID ${ids.id})` : ''}; do not issue it again.`,
	});
}

/** The identifying parts of an issue body (JSON), for `lostAnswer`. */
export function sentIds(what: string, body: IDataObject): SentIds {
	const emisor = (body.emisor && typeof body.emisor === 'object' ? body.emisor : {}) as IDataObject;
	const est = (
		emisor.establecimiento && typeof emisor.establecimiento === 'object'
			? emisor.establecimiento
			: {}
	) as IDataObject;
	const secuencial = (body.secuencial ?? body.secuencia) as string | number | undefined;
	return {
		what,
		secuencial,
		clave_acceso:
			typeof body.clave_acceso === 'string' && body.clave_acceso ? body.clave_acceso : undefined,
		ruc: typeof emisor.ruc === 'string' ? emisor.ruc : undefined,
		series:
			est.codigo && est.punto_emision
				? `${String(est.codigo)}-${String(est.punto_emision)}`
				: undefined,
	};
}

/** The identifying parts of a receipt XML, from its `infoTributaria` (`secuencial`, `claveAcceso`, `ruc`, `estab`, `ptoEmi`). */
export function sentIdsOfXml(what: string, root: XmlElement): SentIds {
	const info = child(root, 'infoTributaria');
	const leaf = (tag: string) => (info && childText(info, tag)) || undefined;
	const estab = leaf('estab');
	const ptoEmi = leaf('ptoEmi');
	return {
		what,
		secuencial: leaf('secuencial'),
		clave_acceso: leaf('claveAcceso'),
		ruc: leaf('ruc'),
		series: estab && ptoEmi ? `${estab}-${ptoEmi}` : undefined,
	};
}

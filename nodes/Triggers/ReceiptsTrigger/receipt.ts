import type { IDataObject } from 'n8n-workflow';

/** Pure helpers for the receipts service's notifications (the complete receipt with its authorization, as JSON). */

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value).trim() : '';
}

function obj(value: unknown): IDataObject {
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}

/**
 * The stable id of a notification: the receipt and the state it reports, `<receipt id>:<state>`, where the
 * state is the authorization's (`AUTORIZADO`, `NO AUTORIZADO`), else the submission's (`DEVUELTA`), else the
 * receipt's own (`CREADO` of a signing failure). When the notification dates that state (the authorization's
 * or the submission's `fecha`), the date is added, so a later outcome of the same receipt after a reissue is
 * another event, while a redelivery of the same notification has the same id. `undefined` when the
 * notification names no receipt.
 */
export function receiptEventId(receipt: IDataObject): string | undefined {
	const id = text(receipt.id) || text(receipt.clave_acceso);
	if (!id) return undefined;
	const auth = obj(receipt.autorizacion);
	const sent = obj(receipt.envio_sri);
	const state = text(auth.estado) || text(sent.estado) || text(receipt.estado) || 'UNKNOWN';
	const date = text(auth.estado) ? text(auth.fecha) : text(sent.estado) ? text(sent.fecha) : '';
	return [id, state, ...(date ? [date] : [])].join(':');
}

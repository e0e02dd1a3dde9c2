import type { IDataObject } from 'n8n-workflow';

/**
 * What the SRI's message codes mean for the person who issues the receipt, and what to do next.
 *
 * The codes, their SRI names and what each one refuses come from the SRI's published technical specification:
 * "Ficha técnica: manual de usuario, catálogo y especificaciones técnicas — Emisión de comprobantes electrónicos,
 * método de automatización off-line", versión 2.32 (octubre 2025), sección 11 "Códigos de errores y advertencias
 * de validación": the errors of the reception and authorization web services, the warnings (advertencias), and
 * the validations it asks of the issuer's own system (codes 34, 42, 64, 69). Two notes of that section decide
 * the next steps:
 * - note 1: a rejected receipt is sent again once corrected, keeping its access key and sequential — except when
 *   an impediment such as a closed RUC or establishment prevents authorizing it; returned (DEVUELTA) receipts are
 *   not stored by the SRI;
 * - note 2: code 70 — do not send the receipt again, nor issue it with another access key or sequential, until
 *   the SRI answers (at most 24 hours).
 * The explanations and next steps are this package's words. A code the table does not list keeps the SRI's own
 * text and gets no explanation: nothing is guessed.
 */

interface SriCode {
	/** The SRI's name for the code, as the specification's table gives it. */
	sri: string;
	/** `error`: the receipt is refused; `warning`: it goes on (the specification's table of advertencias). */
	kind: 'error' | 'warning';
	/** What happened, in plain words (a sentence without its final full stop). */
	explanation: string;
	/** What to do next. `{resend}` stands for how to send the corrected receipt again (see `nextStepOf`). */
	nextStep: string;
}

const NOTHING_TO_CORRECT = 'Nothing in the receipt needs correcting';

/** SRI, Ficha técnica comprobantes electrónicos esquema offline v2.32, sección 11 (see above). */
export const SRI_CODES: Readonly<Record<string, SriCode>> = {
	'2': {
		sri: 'RUC del emisor se encuentra NO ACTIVO',
		kind: 'error',
		explanation: "The issuer's RUC is not active at the SRI",
		nextStep:
			'Reactivate the RUC with the SRI; no receipt of this RUC is authorized until then. Then {resend}.',
	},
	'10': {
		sri: 'Establecimiento del emisor se encuentra Clausurado',
		kind: 'error',
		explanation: 'The SRI has closed (clausurado) the establishment that issues the receipt',
		nextStep:
			'No receipt of this establishment is authorized while the closure lasts; the SRI enables it again when the closure ends. Then {resend}.',
	},
	'26': {
		sri: 'Tamaño máximo superado',
		kind: 'error',
		explanation: 'The receipt is larger than the SRI accepts',
		nextStep:
			'Make it smaller (fewer items or less additional information; put the rest in another receipt), then {resend}.',
	},
	'27': {
		sri: 'Clase no permitido',
		kind: 'error',
		explanation: "The issuer's class of taxpayer may not issue electronic receipts",
		nextStep:
			"Ask the SRI about the issuer's class; this receipt cannot be authorized until the SRI allows it.",
	},
	'28': {
		sri: 'Acuerdo de medios electrónicos no aceptado',
		kind: 'error',
		explanation:
			"The issuer has not accepted the SRI's agreement on electronic means (notifications to the taxpayer's mailbox)",
		nextStep: 'Accept the agreement in SRI en línea, then {resend}.',
	},
	'34': {
		sri: 'Comprobante no autorizado',
		kind: 'error',
		explanation:
			"This type of receipt is not part of the issuer's authorization to issue electronic receipts",
		nextStep: 'Request the authorization for this type of receipt in SRI en línea, then {resend}.',
	},
	'35': {
		sri: 'Documento inválido',
		kind: 'error',
		explanation:
			"The receipt does not follow the SRI's XML structure: a field is missing, too long or in the wrong format (the message's detail names it)",
		nextStep:
			'Correct the field the detail names, then {resend}: it keeps its access key and sequential.',
	},
	'36': {
		sri: 'Versión esquema descontinuada',
		kind: 'error',
		explanation: 'The receipt uses a format version the SRI no longer accepts',
		nextStep:
			'Leave the version field empty (the service then uses its latest format) or give a current version, then {resend}.',
	},
	'37': {
		sri: 'RUC sin autorización de emisión',
		kind: 'error',
		explanation:
			"The issuer's RUC is not authorized to issue electronic receipts (the test and production environments are authorized separately)",
		nextStep:
			'Request the authorization in SRI en línea for this environment (ambiente), then {resend}.',
	},
	'39': {
		sri: 'Firma inválida',
		kind: 'error',
		explanation: 'The electronic signature of the receipt is not valid',
		nextStep:
			'Check the signing certificate loaded in the receipts service (valid, not replaced, the right one for this RUC), then {resend}.',
	},
	'40': {
		sri: 'Error en el certificado',
		kind: 'error',
		explanation: 'The SRI could not read the signing certificate',
		nextStep: 'Load a valid signing certificate in the receipts service, then {resend}.',
	},
	'42': {
		sri: 'Certificado revocado',
		kind: 'error',
		explanation: 'The signing certificate has expired or was revoked',
		nextStep:
			'Renew the certificate with the entity that issued it and load it in the receipts service, then {resend}.',
	},
	'43': {
		sri: 'Clave acceso registrada',
		kind: 'error',
		explanation:
			'The access key is already registered at the SRI: a receipt with this key was sent before',
		nextStep:
			"The receipt exists: look it up (Document → Get of the receipt sent first, or its access key in the SRI's portal) and do not issue or reissue it. This copy was not authorized.",
	},
	'45': {
		sri: 'Secuencial registrado',
		kind: 'error',
		explanation:
			'The sequential number is already used by another receipt of the same type, establishment and emission point',
		nextStep:
			'If that receipt is this same sale sent before, look it up and do nothing more. Otherwise issue this receipt again with the next unused sequential (a new Issue: the number is part of the access key).',
	},
	'46': {
		sri: 'RUC no existe',
		kind: 'error',
		explanation: "The issuer's RUC does not exist in the SRI's taxpayer register",
		nextStep: "Correct the issuer's RUC (emisor.ruc), then {resend}.",
	},
	'47': {
		sri: 'Tipo de comprobante no existe',
		kind: 'error',
		explanation: "The receipt's type code is not one of the SRI's",
		nextStep:
			'Check the receipt type (01 invoice, 03 purchase settlement, 04 credit note, 05 debit note, 06 waybill, 07 retention), then {resend}.',
	},
	'48': {
		sri: 'Esquema XSD no existe',
		kind: 'error',
		explanation: 'The SRI has no schema for this type of receipt in this version',
		nextStep: 'Leave the version field empty or give a current version, then {resend}.',
	},
	'49': {
		sri: 'Argumentos que envían al WS nulos',
		kind: 'error',
		explanation: 'The receipt reached the SRI empty',
		nextStep: `${NOTHING_TO_CORRECT}: {resend}. If it happens again, tell the receipts service.`,
	},
	'50': {
		sri: 'Error interno general',
		kind: 'error',
		explanation: 'The SRI had an internal error',
		nextStep: `${NOTHING_TO_CORRECT}: {resend} later, with the same access key and sequential.`,
	},
	'52': {
		sri: 'Error en diferencias',
		kind: 'error',
		explanation:
			"The amounts do not add up: the SRI's own calculation of totals, taxes or payments gives other values",
		nextStep:
			'Check each item (quantity × unit price − discount), each tax base and value, the totals and the payments, then {resend}.',
	},
	'56': {
		sri: 'Establecimiento cerrado',
		kind: 'error',
		explanation: 'The establishment (establecimiento) that issues the receipt is closed in the RUC',
		nextStep:
			'Open the establishment again in the RUC, then {resend}; or issue a new receipt from an open establishment (another series).',
	},
	'57': {
		sri: 'Autorización suspendida',
		kind: 'error',
		explanation:
			"The issuer's authorization to issue electronic receipts is suspended by the SRI, or was not in force on the emission date",
		nextStep: 'Contact the SRI; once the authorization is in force, {resend}.',
	},
	'58': {
		sri: 'Error en la estructura de clave acceso',
		kind: 'error',
		explanation:
			"The access key does not match the receipt (its date, type, RUC, environment, series or sequential differ from the receipt's)",
		nextStep:
			'Leave the access key out so it is built from the receipt (by the service, or Options → Access Key → Reproducible), or correct it, then {resend}.',
	},
	'63': {
		sri: 'RUC clausurado',
		kind: 'error',
		explanation: "The issuer's RUC is closed (clausurado) by the SRI",
		nextStep:
			'No receipt of this RUC is authorized until the SRI lifts the closure. Then {resend}.',
	},
	'64': {
		sri: 'Código documento sustento',
		kind: 'error',
		explanation: "The supporting document's code is not in the SRI's catalog",
		nextStep:
			'Correct the supporting document type (tipo_documento_sustento, codigo_sustento), then {resend}.',
	},
	'65': {
		sri: 'Fecha de emisión extemporánea',
		kind: 'error',
		explanation: 'The receipt was sent too long after its emission date',
		nextStep:
			'Give it a current emission date (fecha_emision), then {resend}; an access key of your own must then be built again, as the date is part of it.',
	},
	'67': {
		sri: 'Fecha inválida',
		kind: 'error',
		explanation: 'A date of the receipt is not written as the SRI expects',
		nextStep: 'Correct the date, then {resend}.',
	},
	'69': {
		sri: 'Identificación del receptor',
		kind: 'error',
		explanation:
			"The buyer's or recipient's identification does not exist (a RUC that is not in the taxpayer register)",
		nextStep: 'Correct the identification and its type (tipo_identificacion), then {resend}.',
	},
	'70': {
		sri: 'Clave de acceso en procesamiento',
		kind: 'error',
		explanation: 'The SRI is still processing a receipt sent before with this access key',
		nextStep:
			'Do not send it again and do not issue it with another access key or sequential: wait for the SRI to decide (at most 24 hours) and read the receipt again with Document → Get.',
	},
	'80': {
		sri: 'Error en la estructura de clave acceso',
		kind: 'error',
		explanation: 'The access key used to ask for the authorization is not 49 digits, or is empty',
		nextStep:
			'The receipt itself may be fine: read it again with Document → Get; if this repeats, tell the receipts service.',
	},
	'82': {
		sri: 'Error en la fecha de inicio de transporte',
		kind: 'error',
		explanation: "The waybill's transport start date is before its emission date",
		nextStep: 'Correct fecha_inicio_transporte (not before the emission date), then {resend}.',
	},
	'92': {
		sri: 'Error al validar monto de devolución del IVA',
		kind: 'error',
		explanation:
			"The VAT refund amount (devolución del IVA) does not match the one the SRI's service authorized",
		nextStep: 'Give the VAT refund value the SRI authorized, then {resend}.',
	},
	'59': {
		sri: 'Identificación no existe',
		kind: 'warning',
		explanation: "The buyer's identification does not exist at the SRI; the receipt goes on",
		nextStep: "Check the buyer's identification for the next receipts.",
	},
	'60': {
		sri: 'Ambiente ejecución',
		kind: 'warning',
		explanation: "Issued in the SRI's test environment: the receipt has no tax validity",
		nextStep: 'Nothing to do while testing; real receipts are issued with ambiente 2 (production).',
	},
	'62': {
		sri: 'Identificación incorrecta',
		kind: 'warning',
		explanation:
			"The buyer's identification is incorrect (for example a cédula whose check digit fails); the receipt goes on",
		nextStep: "Correct the buyer's identification for the next receipts.",
	},
	'68': {
		sri: 'Documento sustento',
		kind: 'warning',
		explanation:
			'The related (supporting) document does not exist as an electronic receipt; the receipt goes on',
		nextStep: "Check the supporting document's number for the next receipts.",
	},
};

/** The entry of a message code (`'43'`, `43`, `'043'`), or undefined when the specification does not list it. */
export function sriCode(identificador: unknown): SriCode | undefined {
	if (typeof identificador !== 'string' && typeof identificador !== 'number') return undefined;
	const code = String(identificador)
		.trim()
		.replace(/^0+(?=\d)/, '');
	return Object.prototype.hasOwnProperty.call(SRI_CODES, code) ? SRI_CODES[code] : undefined;
}

/** How a corrected receipt is sent again: `with Reissue (ID …)` for a receipt the service holds, else plainly. */
export function resendHow(id?: string): string {
	return id ? `send it again with Reissue (ID ${id})` : 'send it again';
}

/** The next step of a code, with `{resend}` filled in (see `resendHow`); undefined for an unknown code. */
export function nextStepOf(identificador: unknown, id?: string): string | undefined {
	return sriCode(identificador)?.nextStep.replace('{resend}', resendHow(id));
}

const text = (value: unknown): string | undefined =>
	(typeof value === 'string' || typeof value === 'number') && String(value).trim() !== ''
		? String(value).trim()
		: undefined;

/** A message as the SRI gave it: `[ERROR 35] ARCHIVO NO CUMPLE ESTRUCTURA XML (detail)`. */
export function rawLine(m: IDataObject): string {
	const head = [text(m.tipo), text(m.identificador)].filter(Boolean).join(' ');
	const detail = text(m.informacion_adicional);
	return `${head ? `[${head}] ` : ''}${text(m.mensaje) ?? ''}${detail ? ` (${detail})` : ''}`;
}

/**
 * A refusing message as a reason: `43 CLAVE ACCESO REGISTRADA (detail) — what the code means`; a code the
 * specification does not list keeps the SRI's own words only.
 */
export function reasonLine(m: IDataObject): string {
	const code = sriCode(m.identificador);
	const ident = text(m.identificador);
	const detail = text(m.informacion_adicional);
	const raw = `${ident ? `${ident} ` : ''}${text(m.mensaje) ?? ''}${detail ? ` (${detail})` : ''}`;
	return code ? `${raw} — ${code.explanation}` : raw;
}

/**
 * A message in one line: the SRI's own words, then — for a code of the specification — what it means and
 * what to do: `[ERROR 43] CLAVE ACCESO REGISTRADA — The access key is already registered … The receipt exists: …`.
 */
export function explainedLine(m: IDataObject, id?: string): string {
	const code = sriCode(m.identificador);
	const raw = rawLine(m);
	return code ? `${raw} — ${code.explanation}. ${nextStepOf(m.identificador, id)}` : raw;
}

/** Where a receipt carries the message: the submission's answer, the authorization's, or the receipt's own list. */
export type MessageSource = 'envio_sri' | 'autorizacion' | 'mensajes';

/**
 * One message of a receipt's output (`sri_messages[]`): the service's four fields as it sent them, where the
 * message was, and for a code of the specification its `explanation` and `next_step`.
 */
export interface SriMessageOut extends IDataObject {
	identificador?: string;
	tipo?: string;
	mensaje: string;
	informacion_adicional?: string;
	source: MessageSource;
	explanation?: string;
	next_step?: string;
}

export function explainMessage(m: IDataObject, source: MessageSource, id?: string): SriMessageOut {
	const code = sriCode(m.identificador);
	const out: SriMessageOut = {
		identificador: text(m.identificador),
		tipo: text(m.tipo),
		mensaje: text(m.mensaje) ?? '',
		informacion_adicional: text(m.informacion_adicional),
		source,
		explanation: code?.explanation,
		next_step: nextStepOf(m.identificador, id),
	};
	for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
	return out;
}

/**
 * Whether a message refuses the receipt: `tipo` ERROR, or — when the service gives no `tipo` — a code the
 * specification lists as an error, or an unknown code. Warnings (`ADVERTENCIA`, `INFORMATIVO`, and the codes
 * of the table of advertencias) do not.
 */
export function isError(m: IDataObject): boolean {
	const tipo = (text(m.tipo) ?? '').toUpperCase();
	if (tipo) return tipo === 'ERROR';
	return sriCode(m.identificador)?.kind !== 'warning';
}

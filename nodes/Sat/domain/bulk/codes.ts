/**
 * The answer codes of the SAT's bulk download service, version 1.5 (`CodEstatus` of every call, in the SOAP
 * header for a download; `EstadoSolicitud` and `CodigoEstadoSolicitud` of a verification), as the SAT's
 * documentation of the service (versions 1.2 to 1.5) and phpcfdi/sat-ws-descarga-masiva's
 * `CodigosDeServicios.md` list them, with what the node tells the user to do. Which code may be asked again
 * is said here too: a request that creates something (Request) or counts (Download, 2 per package) is never sent
 * again by the node; 300 is the one code after which the node authenticates again and re-sends once, because the
 * SAT refused the token before doing anything.
 */

/** The call was accepted. */
export const ACCEPTED = '5000';
/** "Usuario no válido": the token was refused. */
export const INVALID_USER = '300';

/** What a code means and what to do, for each operation's message. */
interface CodeWords {
	/** What happened, after "the SAT answered <code> (<its words>):". */
	meaning: string;
	/** What the user does now. */
	fix: string;
}

const WORDS: Readonly<Record<string, CodeWords>> = {
	'300': {
		meaning: 'it refused the authentication token (Usuario no válido)',
		fix: 'The node authenticated again and asked once more; the SAT refused that too. Check that the e.firma is the taxpayer’s and in force, and run again later.',
	},
	'301': {
		meaning: 'it refused the request as malformed (XML Mal Formado)',
		fix: 'The SAT’s words after the colon, if any, say which value. Check the RFCs, dates and filters; the node checks the rules it knows before sending, so this may be a rule it does not know yet.',
	},
	'302': {
		meaning: 'it refused the signature (Sello Mal Formado)',
		fix: 'The e.firma’s .cer and .key were read and match; report this as a problem of the node, with the request id if there is one.',
	},
	'303': {
		meaning:
			'the signature does not belong to the RFC that asks (Sello no corresponde con RfcSolicitante)',
		fix: 'Use the e.firma of the taxpayer whose CFDIs are asked for.',
	},
	'304': {
		meaning: 'the certificate is revoked or expired (Certificado Revocado o Caduco)',
		fix: 'Renew the e.firma with the SAT and load the new .cer and .key into the credential.',
	},
	'305': {
		meaning: 'the certificate is not valid for this service (Certificado Inválido)',
		fix: 'Load the e.firma (FIEL), not a CSD; the SAT also answers this to its own test certificates. If it is the e.firma and in force, ask the SAT (it has been reported for some valid e.firmas).',
	},
	'404': {
		meaning: 'it had an uncontrolled error (Error no Controlado)',
		fix: 'Try again later: the SAT’s service fails at times, more so at month’s end.',
	},
	'5001': {
		meaning: 'the third party is not authorized (Tercero no autorizado)',
		fix: 'Remove Third Party RFC, or use the e.firma of a taxpayer the third party is authorized for.',
	},
	'5002': {
		meaning:
			'the requests for exactly these parameters are used up (Se agotó las solicitudes de por vida)',
		fix: 'The SAT takes few requests for one exact period in its lifetime: move the start or the end by one second to make a new period, or use the packages of the earlier requests.',
	},
	'5003': {
		meaning: 'the period holds more than one request may (Tope máximo)',
		fix: 'Split the period into shorter ones (e.g. half a month each): a request gives at most 200,000 CFDIs as XML, 1,000,000 as metadata.',
	},
	'5004': {
		meaning: 'nothing was found (No se encontró la información)',
		fix: 'Check the id: the SAT knows no such request or package, or it held no data.',
	},
	'5005': {
		meaning: 'a request with exactly these parameters is already under way (Solicitud duplicada)',
		fix: 'Do not ask again: keep checking the earlier request (its id is the one Request gave for these parameters) with Check Request.',
	},
	'5006': {
		meaning: 'it had an internal error (Error interno en el proceso)',
		fix: 'Try again later.',
	},
	'5007': {
		meaning: 'the package no longer exists (No existe el paquete solicitado)',
		fix: 'Packages are kept 72 hours after the request is finished: make a new request for the period.',
	},
	'5008': {
		meaning: 'the package was downloaded the most times allowed (Máximo de descargas permitidas)',
		fix: 'The SAT lets a package be downloaded twice: use the copy downloaded before, or make a new request for the period.',
	},
	'5011': {
		meaning: 'a daily limit was reached (Límite de descargas por folio por día)',
		fix: 'Try again tomorrow.',
	},
};

/** The words of `code`, or generic ones for a code the node does not know. */
export function codeWords(code: string): CodeWords {
	return (
		WORDS[code] ?? {
			meaning: 'with a code the node does not know',
			fix: 'Nothing was done with the answer. Check the SAT’s words; if it repeats, report it as a problem of the node.',
		}
	);
}

/** The state of a request (`EstadoSolicitud`), in words. */
type RequestState =
	| 'accepted'
	| 'in_process'
	| 'finished'
	| 'error'
	| 'rejected'
	| 'expired'
	| 'unknown';

const STATES: Readonly<Record<string, RequestState>> = {
	'1': 'accepted',
	'2': 'in_process',
	'3': 'finished',
	'4': 'error',
	'5': 'rejected',
	'6': 'expired',
};

/** `EstadoSolicitud` in words; `0` (seen at times, transient) and anything else: `unknown`. */
export function requestState(code: string): RequestState {
	return STATES[code] ?? 'unknown';
}

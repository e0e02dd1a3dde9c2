import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';

/**
 * A taxpayer's e.firma (FIEL, firma electrónica avanzada), as the SAT issues it: a `.cer` file (an X.509
 * certificate, DER) and a `.key` file (its RSA private key, encrypted PKCS#8, DER) with its password. Read with
 * `node:crypto` only, and checked for what the SAT's bulk download service needs of it:
 * - the key opens with the password, and belongs to the certificate (`X509Certificate.checkPrivateKey`);
 * - the certificate is in force at `now` (validFrom, validTo);
 * - it is an e.firma, not a CSD (the seal certificate for invoices): a CSD's subject names its branch in an `OU`,
 *   an e.firma's has none (the distinction phpcfdi's credentials library draws; the SAT refuses a CSD with 305);
 * - the RFC is the subject's `x500UniqueIdentifier` (OID 2.5.4.45), before ` /` (a company's certificate adds
 *   its legal representative's RFC after it).
 * Every problem says what is wrong with which field and what to do, and never repeats the key or the password.
 * Plain functions, no n8n types: the credential's Test and the node use the same reading.
 */

/** The e.firma, read and checked. */
export interface Efirma {
	certificate: X509Certificate;
	key: KeyObject;
	/** The taxpayer's RFC, from the certificate. */
	rfc: string;
	/** The certificate's DER as base64, one line (WS-Security's BinarySecurityToken, XML-DSig's X509Certificate). */
	certificateBase64: string;
	/** The serial as a decimal integer (XML-DSig's X509SerialNumber). */
	serialDecimal: string;
	/** The SAT's certificate number: the serial's bytes read as ASCII digits (20 digits). */
	certificateNumber: string;
	/** The issuer's attributes in certificate order, joined with commas (X509IssuerName, as phpcfdi writes it). */
	issuerName: string;
	/** Who the certificate names (its CN, else its O). */
	holder: string;
	validFrom: Date;
	validTo: Date;
}

/** What the credential holds (its fields as n8n gives them). */
interface EfirmaFields {
	publicCertificate?: unknown;
	privateKey?: unknown;
	keyPassword?: unknown;
}

/** Why the e.firma cannot be used: the field (as the credential labels it), what is wrong, what to do. */
interface EfirmaProblem {
	field: string;
	problem: string;
	fix: string;
}

const EFIRMA_LABELS = {
	certificate: 'Certificate (.cer)',
	privateKey: 'Private Key (.key)',
	keyPassword: 'Key Password',
} as const;

const BASE64_COMMAND =
	'paste the output of `base64 -w0 file` (Linux), `base64 -i file` (macOS) or `[Convert]::ToBase64String([IO.File]::ReadAllBytes("file"))` (Windows PowerShell)';

/** A file's contents pasted as base64 (any whitespace dropped) or PEM, as bytes or PEM text; or why not. */
function pasted(
	value: unknown,
	label: string,
	pemTypes: readonly string[],
): { der: Buffer } | { pem: string; type: string } | EfirmaProblem {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!text)
		return {
			field: label,
			problem: 'is empty',
			fix: `Open the credential and ${BASE64_COMMAND}, or the file in PEM.`,
		};
	const pem = /^-----BEGIN ([A-Z ]{1,40})-----/.exec(text);
	if (pem) {
		if (!pemTypes.includes(pem[1]))
			return {
				field: label,
				problem: `holds a PEM "${pem[1]}", not ${pemTypes.map((t) => `"${t}"`).join(' or ')}`,
				fix:
					label === EFIRMA_LABELS.certificate
						? 'Paste the .cer file here and the .key file in Private Key (.key).'
						: 'Paste the .key file here and the .cer file in Certificate (.cer).',
			};
		return { pem: text, type: pem[1] };
	}
	const compact = text.replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1)
		return {
			field: label,
			problem: 'is neither base64 nor PEM',
			fix: `The SAT's file is binary: ${BASE64_COMMAND}, and paste that text.`,
		};
	return { der: Buffer.from(compact, 'base64') };
}

const isProblem = (value: object): value is EfirmaProblem => 'problem' in value;

/** The certificate of the credential, or why it cannot be read. */
function readCertificate(value: unknown): X509Certificate | EfirmaProblem {
	const label = EFIRMA_LABELS.certificate;
	const given = pasted(value, label, ['CERTIFICATE']);
	if (isProblem(given)) return given;
	try {
		return new X509Certificate('der' in given ? given.der : given.pem);
	} catch {
		return {
			field: label,
			problem: 'is not an X.509 certificate',
			fix: `Load the e.firma's .cer file (not the .key, not a .req): ${BASE64_COMMAND}.`,
		};
	}
}

/** The key of the credential opened with its password, or why not (the password never in the words). */
function readKey(value: unknown, password: unknown): KeyObject | EfirmaProblem {
	const label = EFIRMA_LABELS.privateKey;
	const given = pasted(value, label, ['ENCRYPTED PRIVATE KEY', 'PRIVATE KEY', 'RSA PRIVATE KEY']);
	if (isProblem(given)) return given;
	const source =
		'der' in given
			? { key: given.der, format: 'der' as const, type: 'pkcs8' as const }
			: { key: given.pem, format: 'pem' as const };
	const secret = typeof password === 'string' ? password : '';
	// Whether it is a key at all: an encrypted key refuses to open without its password, anything else otherwise.
	let encrypted = false;
	try {
		createPrivateKey(source);
	} catch (error) {
		// DER asks for the passphrase; PEM's reader is interrupted waiting for one (Node 20, OpenSSL 3).
		const code = (error as { code?: string }).code;
		encrypted =
			code === 'ERR_MISSING_PASSPHRASE' ||
			('pem' in given && given.type === 'ENCRYPTED PRIVATE KEY') ||
			code === 'ERR_OSSL_CRYPTO_INTERRUPTED_OR_CANCELLED';
		if (!encrypted)
			return {
				field: label,
				problem: 'is not a private key',
				fix: `Load the e.firma's .key file (an encrypted PKCS#8 key, as the SAT issues it): ${BASE64_COMMAND}.`,
			};
	}
	if (encrypted && secret === '')
		return {
			field: EFIRMA_LABELS.keyPassword,
			problem: 'is empty, and the key is encrypted',
			fix: "Enter the password of the .key file (the e.firma's password, set when it was issued).",
		};
	try {
		return createPrivateKey({ ...source, passphrase: secret });
	} catch {
		return {
			field: EFIRMA_LABELS.keyPassword,
			problem: 'does not open the private key',
			fix: "Enter the password of this .key file (the e.firma's, not the CIEC's), as it was set: upper and lower case count.",
		};
	}
}

/** The value of attribute `name` (or its OID) in a distinguished name as Node writes it, unescaped. */
function attributeOf(dn: string, names: readonly string[]): string | undefined {
	for (const line of dn.split('\n')) {
		const eq = line.indexOf('=');
		if (eq > 0 && names.includes(line.slice(0, eq)))
			return line.slice(eq + 1).replace(/\\(.)/g, '$1');
	}
	return undefined;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The e.firma of the credential, read and checked at `now` (epoch milliseconds), or the first problem found, in
 * the order a person fixes them: files, password, pair, dates, kind.
 */
export function readEfirma(fields: EfirmaFields, now: number): Efirma | EfirmaProblem {
	const certificate = readCertificate(fields.publicCertificate);
	if (isProblem(certificate)) return certificate;
	const key = readKey(fields.privateKey, fields.keyPassword);
	if (isProblem(key)) return key;
	if (!certificate.checkPrivateKey(key))
		return {
			field: EFIRMA_LABELS.privateKey,
			problem: 'does not belong to the certificate',
			fix: 'Load the .key file issued together with this .cer (same e.firma, same date): a key and a certificate of different e.firmas, or of the CSD, do not match.',
		};
	const validFrom = new Date(certificate.validFrom);
	const validTo = new Date(certificate.validTo);
	const holder =
		attributeOf(certificate.subject, ['CN']) ?? attributeOf(certificate.subject, ['O']) ?? '';
	if (now < validFrom.getTime())
		return {
			field: EFIRMA_LABELS.certificate,
			problem: `is not in force yet: it is valid from ${day(validFrom)}`,
			fix: 'Use it from that date, or the e.firma in force now.',
		};
	if (now > validTo.getTime())
		return {
			field: EFIRMA_LABELS.certificate,
			problem: `expired on ${day(validTo)}`,
			fix: 'Renew the e.firma with the SAT (SAT ID, or an appointment at a SAT office) and load the new .cer and .key: the SAT refuses an expired one (304).',
		};
	const branch = attributeOf(certificate.subject, ['OU']);
	if (branch !== undefined)
		return {
			field: EFIRMA_LABELS.certificate,
			problem: `is a CSD (Certificado de Sello Digital, for stamping invoices; its branch: "${branch}"), not the e.firma`,
			fix: "The SAT's bulk download takes only the e.firma (FIEL): load its .cer and .key. The SAT refuses a CSD (305).",
		};
	const unique = attributeOf(certificate.subject, ['x500UniqueIdentifier', '2.5.4.45']);
	const rfc = unique?.split(' /')[0].trim().toUpperCase() ?? '';
	if (!/^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/.test(rfc))
		return {
			field: EFIRMA_LABELS.certificate,
			problem: 'names no RFC (its subject has no x500UniqueIdentifier with one)',
			fix: "Load the e.firma's .cer as the SAT issued it.",
		};
	const serialHex = certificate.serialNumber;
	const serialBytes = Buffer.from(serialHex.length % 2 ? `0${serialHex}` : serialHex, 'hex');
	const ascii = serialBytes.toString('latin1');
	return {
		certificate,
		key,
		rfc,
		certificateBase64: certificate.raw.toString('base64'),
		serialDecimal: BigInt(`0x${serialHex}`).toString(),
		certificateNumber: /^\d+$/.test(ascii) ? ascii : serialHex,
		issuerName: certificate.issuer.split('\n').join(','),
		holder,
		validFrom,
		validTo,
	};
}

/** `value` as an e.firma problem, when it is one. */
export function efirmaProblem(value: Efirma | EfirmaProblem): EfirmaProblem | undefined {
	return isProblem(value) ? value : undefined;
}

/**
 * The texts of the credential that are secrets, in the forms they may take: the key as pasted, without its
 * whitespace, and its base64 body without the PEM lines; the password.
 */
export function efirmaSecrets(fields: EfirmaFields): string[] {
	const out: string[] = [];
	const key = typeof fields.privateKey === 'string' ? fields.privateKey.trim() : '';
	if (key) {
		out.push(key, key.replace(/\s+/g, ''));
		const body = key.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
		if (body) out.push(body);
	}
	if (typeof fields.keyPassword === 'string' && fields.keyPassword) out.push(fields.keyPassword);
	return [...new Set(out)];
}

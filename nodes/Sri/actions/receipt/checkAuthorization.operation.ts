import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	addFacts,
	itemError,
	reword,
	upstreamError,
	upstreamProblem,
} from '../../../shared/errors';
import { itemParameter } from '../../../shared/parameters';
import type { OperationResult } from '../../../shared/router';
import { ask, type PublicServiceContext } from '../../../shared/soap';
import { Checker } from '../../../shared/validate';
import { differencesText, fileDifferences } from '../../domain/compare';
import { keyAmbiente, keyProblem, normalizeKey } from '../../domain/key';
import { presentAnswer, type Presented } from '../../domain/result';
import { authorizationAddress, authorizationQuestion, SRI } from '../../domain/service';
import {
	attachXmlOption,
	binaryFieldOption,
	NOT_ASKED,
	parallelRequestsOption,
	requestTimeoutOption,
	serviceAddressOption,
} from './common.descriptions';
import { optionsOf, outputField, receiptOutput, SHOWN_IN, type FileFacts } from './output';
import { binaryFile, presentXml } from './xmlFile';

export const kind = 'read';

/** The next key's question is sent while this one's answer is read into its output (router.ts, overlaps). */
export const overlaps = true;

/** Options → Parallel Requests with the SRI's small default (the router reads it). */
export const parallelOption = parallelRequestsOption;

/** Version 2: where the receipt's XML file may be on the input item (to take its key, and to compare it). */
const inputBinaryFieldOption: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'inputBinaryField',
	type: 'string',
	default: 'data',
	description:
		"The input binary field that may hold the receipt's XML file: an e-mail attachment, or the file Read XML passes on. When it does, Access Key may be left empty (the file's key is asked about), and the receipt the SRI authorized is compared with the file (matches_file).",
};

const options = [
	attachXmlOption,
	parallelRequestsOption,
	binaryFieldOption,
	requestTimeoutOption,
	serviceAddressOption,
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['receipt'], operation: ['checkAuthorization'] } },
	[
		{
			displayName: 'Access Key',
			name: 'accessKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 2110202601179001691900120010010000001231234567813',
			description:
				'The receipt’s access key (clave de acceso): the 49 digits printed on its RIDE and inside its XML. Spaces are ignored. Usually an expression that reads it from the input item.',
			displayOptions: SHOWN_IN[1],
		},
		{
			displayName: 'Access Key',
			name: 'accessKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2110202601179001691900120010010000001231234567813',
			description:
				'The receipt’s access key (clave de acceso): the 49 digits printed on its RIDE and inside its XML; spaces are ignored. Leave it empty when the input item carries the receipt’s XML file (Options → Input Binary Field): its key is asked about.',
			displayOptions: SHOWN_IN[2],
		},
		outputField,
		optionsOf(1, options),
		optionsOf(2, [
			...options.slice(0, 2),
			{
				...binaryFieldOption,
				description:
					'The name of the output binary field to put the SRI’s XML in. An input file of that name (the supplier’s) is never replaced: name another field to keep both.',
			},
			inputBinaryFieldOption,
			...options.slice(3),
		]),
	],
);

/** The receipt's XML file on input item `i` (version 2, Options → Input Binary Field), read; undefined when there is none. */
async function fileOnItem(
	this: IExecuteFunctions,
	i: number,
	options: IDataObject,
): Promise<{ label: string; name?: string; read: Presented | { problem: string } } | undefined> {
	const raw = options.inputBinaryField ?? 'data';
	const field = typeof raw === 'string' ? raw.trim() : '';
	if (!field || !Object.hasOwn(this.getInputData()[i]?.binary ?? {}, field)) return undefined;
	const file = await binaryFile.call(this, i, field);
	return {
		label: file.label,
		name: file.name,
		read: file.bytes ? presentXml(file.bytes) : { problem: file.problem ?? '' },
	};
}

/**
 * Asks the SRI's AutorizacionComprobantesOffline about one key (domain/service.ts, through shared/soap.ts) and outputs what it said
 * (domain/result.ts). A key that is not one, or a Service Address that is not an address, stops the item
 * before anything is sent; an answer that is not a usable SOAP answer is an error naming the key. Version 2,
 * given the receipt's file on the item: its key when Access Key is empty, and the file compared with the receipt
 * the SRI authorized (domain/compare.ts) — `matches_file`, each difference named in a warning.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult> {
	// One read of the item's Options (each parameter read costs n8n a resolution of its own).
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const file =
		this.getNode().typeVersion >= 2 ? await fileOnItem.call(this, i, options) : undefined;
	try {
		return await checkKey.call(this, ctx, i, options, file);
	} catch (error) {
		// The error item of a file's row names the file too (Continue On Fail; shared/router.ts failItem).
		throw file?.name ? addFacts(error, { about: { file_name: file.name } }) : error;
	}
}

/** Asks about item `i`'s key (see execute), `file` the receipt's file on the item, read. */
async function checkKey(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
	options: IDataObject,
	file: Awaited<ReturnType<typeof fileOnItem>>,
): Promise<OperationResult> {
	let key = normalizeKey(itemParameter.call(this, 'accessKey', i, ''));
	const own = file && !('problem' in file.read) ? file.read.json.clave_acceso : undefined;
	if ((key === '' || key === undefined || key === null) && typeof own === 'string') key = own;
	const check = new Checker();
	const keyIssue = keyProblem(key);
	if (keyIssue === 'is required') {
		const upstream = upstreamError(this.getInputData()[i]?.json);
		check.fail(
			'Access Key',
			upstream
				? upstreamProblem(upstream)
				: file && 'problem' in file.read
					? `is empty, and ${file.label} on the input item ${file.read.problem}`
					: 'is required: give the receipt’s 49 digits (clave de acceso), or its XML file on the input item (version 2, Options → Input Binary Field)',
		);
	} else if (keyIssue) check.fail('Access Key', keyIssue);
	const clave = key as string;
	const where = authorizationAddress(
		keyIssue ? 'produccion' : keyAmbiente(clave),
		options.serviceAddress,
	);
	if ('problem' in where) check.fail('Options → Service Address', where.problem);
	check.throwIfFailed(this.getNode(), i, NOT_ASKED);

	let answer;
	try {
		answer = await ask(
			ctx,
			SRI,
			authorizationQuestion(clave, (where as { address: string }).address),
			i,
		);
	} catch (error) {
		throw reword(error, `Access key ${clave}: `);
	}
	const version2 = this.getNode().typeVersion >= 2;
	const presented = presentAnswer(answer, 'sri', clave, version2);
	if ('unreadable' in presented)
		throw itemError(
			this.getNode(),
			i,
			`Access key ${clave}: the SRI's answer holds a receipt that cannot be read (${presented.unreadable})`,
			'The SRI answered, but the receipt inside its answer is not a receipt the package reads safely, so nothing of it is given. If Options → Service Address is set, check that it is the SRI or a faithful proxy of it.',
		);
	const facts = compareWithFile(file, presented);
	return await receiptOutput.call(this, i, withFileFigures(presented, file, clave), options, facts);
}

/**
 * The output of a key the SRI gave no receipt for (not found, in process), when the item carries that receipt's
 * file: the receipt's figures — issuer, number, date, party, amounts — from the file, so that the row says which
 * receipt it is, with a warning that they are the file's. The SRI's state stays the SRI's (not authorized), and the
 * file's receipt is not given as `comprobante`: nothing downstream takes it for the SRI's.
 */
function withFileFigures(
	presented: Presented,
	file: Awaited<ReturnType<typeof fileOnItem>>,
	key: string,
): Presented {
	if (presented.receipt || !file || 'problem' in file.read) return presented;
	const { receipt, json: own } = file.read;
	if (!receipt || own.clave_acceso !== key) return presented;
	const json: IDataObject = {};
	for (const [field, value] of Object.entries(presented.json)) {
		if (field === 'warnings') Object.assign(json, receipt.summary);
		json[field] = value;
	}
	json.warnings = [
		...(presented.json.warnings as string[]),
		`${file.label}: the receipt's figures here (issuer, number, date, amounts) are the file's, since the SRI gave no receipt for its access key. Do not book them until the SRI authorizes it.`,
	];
	return { json, receipt };
}

/** What the item says of the file on it: its name, and whether it is the receipt the SRI authorized. */
function compareWithFile(
	file: Awaited<ReturnType<typeof fileOnItem>>,
	presented: Presented,
): FileFacts {
	if (!file) return {};
	const warnings = presented.json.warnings as string[];
	if ('problem' in file.read) {
		warnings.push(
			`${file.label} on the input item ${file.read.problem}: it was not compared with the receipt the SRI authorized.`,
		);
		return { fileName: file.name };
	}
	if (!presented.receipt || !file.read.receipt) return { fileName: file.name, matches: null };
	const differences = fileDifferences(file.read.receipt, presented.receipt, {
		file: file.read.json.estado,
		sri: presented.json.estado,
	});
	if (differences.length)
		warnings.push(
			`${file.label} is not the receipt the SRI authorized for this access key: ${differencesText(differences)}. Book the SRI’s figures, not the file’s, or ask the supplier why they differ.`,
		);
	return { fileName: file.name, matches: differences.length === 0, differences };
}

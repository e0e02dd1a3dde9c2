import type {
	IBinaryKeyData,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { binaryKeptSize, keptSize } from '../../../shared/budget';
import { factsOf, itemError, upstreamError, upstreamProblem } from '../../../shared/errors';
import { megabytes } from '../../../shared/http';
import type { OperationResult, ReadModule } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { Checker } from '../../../shared/validate';
import { ZipError, type ZipLimits } from '../../../shared/zip';
import { ACCEPTED, codeWords } from '../../domain/bulk/codes';
import { cfdiOfEntry, metadataRows, packageEntries } from '../../domain/bulk/packages';
import { listOf } from '../../domain/bulk/query';
import { downloadQuestion } from '../../domain/bulk/service';
import { bulkOptions, cfdiKindField, parallelOptionOf } from './options';
import { bulkSession } from './session';

export const kind: ReadModule<PublicServiceContext>['kind'] = 'read';

const options = bulkOptions('packages', 1, 120);

/** Parallel Requests with the default of 1: a package may be large. */
export const parallelOption = parallelOptionOf(options);

/** How to ask for less when a run would keep more than it may (shared/budget.ts). */
export const narrow =
	'Ask for a shorter period (Request → Period: Custom, e.g. half a month each), so that each package holds fewer CFDIs; or download the packages in separate runs, one package per item';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['bulkDownload'], operation: ['download'] } },
	[
		cfdiKindField,
		{
			displayName: 'Package IDs',
			name: 'packageIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. 4E80345D-917F-40BB-A98F-4A73939343C5_01',
			description:
				'One package ID, or several separated by commas. Empty: every package of the input item’s package_ids (as Check Request outputs them).',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'One Item per CFDI or Metadata Row',
					value: 'files',
					description:
						'XML packages: an item per CFDI with its file (&lt;UUID&gt;.xml), ready for Read CFDI XML. Metadata packages: an item per row.',
				},
				{
					name: 'Package ZIP',
					value: 'zip',
					description: 'An item per package with its ZIP as the SAT sent it',
				},
			],
			default: 'files',
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			description:
				'The binary field of each item that holds its file: a CFDI’s XML, or the package’s ZIP',
		},
		options,
	],
);

/** A package id as the SAT gives them (`<IdSolicitud>_<n>`): letters, digits, `-` and `_`. */
const PACKAGE_ID = /^[0-9A-Za-z][0-9A-Za-z_-]{0,99}$/;

/** The package ids of item `i`: the field's, else the item's `package_ids`; checked before anything is sent. */
function packageIdsOf(this: IExecuteFunctions, i: number): string[] {
	const json = this.getInputData()[i]?.json ?? {};
	const given = listOf(this.getNodeParameter('packageIds', i, ''));
	const ids = given.length ? given : listOf(json.package_ids);
	const check = new Checker();
	const upstream = upstreamError(json);
	if (!ids.length && upstream) check.fail('Package IDs', upstreamProblem(upstream));
	else if (!ids.length)
		check.fail(
			'Package IDs',
			json.finished === false
				? 'is missing: the input item is a request that is not finished (finished: false); download after Check Request says finished'
				: 'is missing: give them, or connect Check Request (its output has package_ids)',
		);
	for (const id of ids)
		if (!PACKAGE_ID.test(id))
			check.fail('Package IDs', `${JSON.stringify(id.slice(0, 120))} is not a package id`);
	check.throwIfFailed(this.getNode(), i, 'Nothing was sent to the SAT.');
	return [...new Set(ids)];
}

/** The largest package answer read: a quarter of what one run may keep (budget.ts), 128 MB by default. */
const answerCap = (ctx: PublicServiceContext) =>
	Math.floor((ctx.kept?.limits.bytes ?? 512 * 1024 * 1024) / 4);

/** What one package may inflate to. */
function zipLimits(ctx: PublicServiceContext): ZipLimits {
	return {
		maxEntries: 200_000,
		maxTotalBytes: ctx.kept?.limits.bytes ?? 512 * 1024 * 1024,
		maxRatio: 200,
	};
}

/**
 * Downloads packages of a finished request and gives what they hold: an item per CFDI (its XML in a binary
 * field, `<UUID>.xml`: what Read CFDI XML and Build DIOT File take) or per metadata row (typed columns), the
 * node unzipping the package itself; or an item per package with its ZIP. Sent once per package: the SAT counts
 * every download (two at most), so the node never downloads a package again by itself.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult> {
	const ids = packageIdsOf.call(this, i);
	const session = await bulkSession.call(this, ctx, i);
	const addresses = session.addresses(i);
	const field =
		String(this.getNodeParameter('binaryPropertyName', i, 'data') ?? '').trim() || 'data';
	const asZip = this.getNodeParameter('output', i, 'files') === 'zip';
	const cfdiKind = this.getNodeParameter('cfdiKind', i, 'cfdi');
	const node = this.getNode();
	const out: INodeExecutionData[] = [];
	const keep = (item: INodeExecutionData) => {
		let bytes = keptSize(item.json);
		for (const binary of Object.values(item.binary ?? {})) bytes += binaryKeptSize(binary);
		ctx.kept?.keep(i, bytes, 1, node.name, narrow);
		out.push(item);
	};
	for (const packageId of ids) {
		const cap = answerCap(ctx);
		let answer;
		let failure: unknown;
		try {
			answer = await session.call(addresses, i, (token) =>
				downloadQuestion(session.efirma, packageId, addresses.download, token, cap),
			);
		} catch (error) {
			failure = error;
		}
		const size = factsOf(failure).size;
		if (size)
			throw itemError(
				node,
				i,
				`Package ${packageId} is larger than the ${megabytes(size.limit)} the node reads`,
				`${narrow}. The SAT counts every download of a package (two at most): this one may have counted.`,
			);
		if (!answer) throw failure;
		if (answer.code !== ACCEPTED || !answer.packageBase64) {
			const words = codeWords(answer.code);
			throw itemError(
				node,
				i,
				`Package ${packageId}: the SAT answered ${answer.code} (${answer.message || 'no message'}): ${answer.code === ACCEPTED ? 'accepted, but without the package' : words.meaning}`,
				answer.code === ACCEPTED
					? 'The SAT counts every download of a package (two at most): this one may have counted. Download it once more later.'
					: words.fix,
			);
		}
		const zip = Buffer.from(answer.packageBase64, 'base64');
		const base = {
			package_id: packageId,
			request_id: packageId.replace(/_[^_]*$/, ''),
			cfdi_kind: cfdiKind,
		};
		if (asZip) {
			keep({
				json: { ...base, file_name: `${packageId}.zip`, bytes: zip.length },
				binary: {
					[field]: await this.helpers.prepareBinaryData(zip, `${packageId}.zip`, 'application/zip'),
				},
			});
			continue;
		}
		const unreadable = (problem: string) =>
			itemError(
				node,
				i,
				`Package ${packageId} cannot be read: ${problem}`,
				'The SAT counts every download of a package (two at most): this one counted. Download it once more with Output → Package ZIP to keep the file as it came, and check it; if the SAT keeps sending it so, make a new request.',
			);
		/** What `read` gives of the package; a damaged package (a ZipError) is the error above. */
		const reading = <T>(read: () => T): T => {
			try {
				return read();
			} catch (error) {
				throw error instanceof ZipError ? unreadable(error.message) : error;
			}
		};
		const content = reading(() => packageEntries(zip, zipLimits(ctx)));
		if (content.kind === 'empty')
			throw unreadable('it holds no CFDI XML file and no metadata file (.txt)');
		if (content.kind === 'metadata') {
			reading(() => {
				for (const row of metadataRows(zip, content)) keep({ json: { ...row, ...base } });
			});
			continue;
		}
		for (const entry of content.entries) {
			const cfdi = reading(() => cfdiOfEntry(zip, entry));
			const binary: IBinaryKeyData = {
				[field]: await this.helpers.prepareBinaryData(cfdi.data, cfdi.fileName, 'application/xml'),
			};
			keep({
				json: {
					uuid: cfdi.uuid ?? null,
					file_name: cfdi.fileName,
					...base,
					...(cfdi.uuid
						? {}
						: { warnings: [`"${entry.name}" names no stamp UUID (TimbreFiscalDigital)`] }),
				},
				binary,
			});
		}
	}
	return out;
}

"""Loss run: PDF report, XLSX workbook and a carrier-system CSV claims export."""

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.loss_run import csvexport, pdf, xlsx
from packetbench.generator.doctypes.loss_run.build import build
from packetbench.generator.doctypes.loss_run.model import LossRun
from packetbench.generator.doctypes.loss_run.prior import prior

LOSS_RUN = register(
    DocType(
        name="loss_run",
        title="Loss Run",
        model=LossRun,
        build=build,
        variants=(
            Variant("loss_run_pdf", "pdf", pdf.render, pdf.STYLE),
            Variant("loss_run_excel", "xlsx", xlsx.render, xlsx.STYLE),
            Variant(
                "loss_run_csv",
                "csv",
                csvexport.render,
                csvexport.STYLE,
                omits=csvexport.OMITS,
                adapt=csvexport.with_claims_only,
            ),
        ),
        section="history",
        prior=prior,
    )
)

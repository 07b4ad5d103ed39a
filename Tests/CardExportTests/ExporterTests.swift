import CardExport
import Testing

@Suite struct ExporterTests {}

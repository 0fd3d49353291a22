package dev.guard.schema;

import java.util.Locale;
import java.util.Optional;

/**
 * The JSON Schema drafts guard validates with: draft-04, draft-06 and draft-07 through everit, 2019-09 and
 * 2020-12 through networknt's json-schema-validator (guard-schema/README.md, "Engines", says why).
 */
public enum Draft {
    DRAFT_4("id", "draft-04", "http://json-schema.org/draft-04/schema#"),
    DRAFT_6("$id", "draft-06", "http://json-schema.org/draft-06/schema#"),
    DRAFT_7("$id", "draft-07", "http://json-schema.org/draft-07/schema#"),
    DRAFT_2019_09("$id", "2019-09", "https://json-schema.org/draft/2019-09/schema"),
    DRAFT_2020_12("$id", "2020-12", "https://json-schema.org/draft/2020-12/schema");

    private final String idKeyword;
    private final String label;
    private final String metaSchema;

    Draft(String idKeyword, String label, String metaSchema) {
        this.idKeyword = idKeyword;
        this.label = label;
        this.metaSchema = metaSchema;
    }

    /** {@code id} in draft-04, {@code $id} from draft-06 on. */
    public String idKeyword() {
        return idKeyword;
    }

    /** {@code draft-04}, {@code draft-06}, {@code draft-07}, {@code 2019-09}, {@code 2020-12}: the name the standard uses. */
    public String label() {
        return label;
    }

    /** The {@code $schema} value that declares this draft, as the standard writes it. */
    public String metaSchema() {
        return metaSchema;
    }

    /** Whether this draft is one of those before 2019-09, validated by everit. */
    public boolean legacy() {
        return ordinal() <= DRAFT_7.ordinal();
    }

    /** 4, 6, 7, 2019-09 or 2020-12 (also "draft-07", "draft7", "draft2020-12", "2020"); empty for anything else. */
    public static Optional<Draft> parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT).replace("draft", "").replace("-", "").replace("_", "");
        switch (t) {
            case "4":
            case "04":
                return Optional.of(DRAFT_4);
            case "6":
            case "06":
                return Optional.of(DRAFT_6);
            case "7":
            case "07":
                return Optional.of(DRAFT_7);
            case "201909":
            case "2019":
                return Optional.of(DRAFT_2019_09);
            case "202012":
            case "2020":
                return Optional.of(DRAFT_2020_12);
            default:
                return Optional.empty();
        }
    }

    /** Every spelling {@link #parse} accepts, for messages. */
    public static String spellings() {
        return "4, 6, 7, 2019-09 or 2020-12";
    }

    /**
     * The draft a {@code $schema} value names: {@code http(s)://json-schema.org/draft-0N/schema} or
     * {@code http(s)://json-schema.org/draft/2019-09/schema} (and 2020-12), with or without the trailing
     * {@code #}; empty for any other meta-schema (draft-03, a custom one).
     */
    public static Optional<Draft> ofMetaSchema(String uri) {
        String u = uri.strip().replaceFirst("^https?://", "").replaceFirst("#$", "");
        switch (u) {
            case "json-schema.org/draft-04/schema":
                return Optional.of(DRAFT_4);
            case "json-schema.org/draft-06/schema":
                return Optional.of(DRAFT_6);
            case "json-schema.org/draft-07/schema":
                return Optional.of(DRAFT_7);
            case "json-schema.org/draft/2019-09/schema":
                return Optional.of(DRAFT_2019_09);
            case "json-schema.org/draft/2020-12/schema":
                return Optional.of(DRAFT_2020_12);
            default:
                return Optional.empty();
        }
    }
}

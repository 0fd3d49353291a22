package dev.guard.schema;

import java.util.Locale;
import java.util.Optional;

/** The JSON Schema drafts guard validates with (through everit): draft-04, draft-06 and draft-07. */
public enum Draft {
    DRAFT_4("id"),
    DRAFT_6("$id"),
    DRAFT_7("$id");

    private final String idKeyword;

    Draft(String idKeyword) {
        this.idKeyword = idKeyword;
    }

    /** {@code id} in draft-04, {@code $id} from draft-06 on. */
    public String idKeyword() {
        return idKeyword;
    }

    /** The number: 4, 6 or 7. */
    public int number() {
        return Integer.parseInt(name().substring("DRAFT_".length()));
    }

    /** 4, 6 or 7 (also "draft-07", "draft7"); empty for anything else. */
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
            default:
                return Optional.empty();
        }
    }

    /**
     * The draft a {@code $schema} value names: {@code http(s)://json-schema.org/draft-0N/schema}, with or
     * without the trailing {@code #}; empty for any other meta-schema (draft-03, 2019-09, 2020-12, a custom one).
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
            default:
                return Optional.empty();
        }
    }
}

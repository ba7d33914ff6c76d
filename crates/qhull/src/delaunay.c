/* The one entry point schedlab needs from Qhull: the lower Delaunay facets of 3-D points, with
 * scipy's options (d Qbb Qc Qz Q12 Qt), as plain arrays. Rust binds this function by hand
 * (src/lib.rs), so the build needs a C compiler and nothing else: no bindgen, no libclang.
 *
 * The call sequence is the one the `qhull` crate (0.4.1) made for schedlab before: a zeroed
 * qhT, qh_init_A with the command "qhull", qh_checkflags and qh_initflags, the options set as
 * fields, qh_init_B, qh_qhull, qh_prepare_output. Qhull's errors longjmp back here and come
 * out as a message. */

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qhull_ra.h"

#include "delaunay.h"

/* qconvex_r.c's hidden options, as the qhull crate passes them to qh_checkflags. */
static char hidden_options[] =
    " d v H Qbb Qf Qg Qm Qr Qu Qv Qx Qz TR E V Fp Gt Q0 Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10 Q11 Q15 ";

static void copy_message(FILE *errfile, char *message, size_t capacity) {
    size_t length = 0;
    if (errfile && fseek(errfile, 0, SEEK_SET) == 0) {
        length = fread(message, 1, capacity - 1, errfile);
    }
    message[length] = '\0';
    if (length == 0) {
        snprintf(message, capacity, "Qhull stopped with an error it did not describe");
    }
}

/* Counts the lower Delaunay facets (neither the sentinel, id 0, nor upper Delaunay). */
static int count_lower(qhT *qh) {
    int count = 0;
    for (facetT *facet = qh->facet_list; facet; facet = facet->next) {
        if (facet->id != 0 && !facet->upperdelaunay) {
            count++;
        }
    }
    return count;
}

/* Fills `out` from the computed hull; runs inside the caller's setjmp (qh_pointid may fail). */
static int collect(qhT *qh, schedlab_delaunay3_t *out) {
    int count = count_lower(qh);
    out->facets = (schedlab_facet_t *)calloc(count > 0 ? (size_t)count : 1, sizeof(schedlab_facet_t));
    if (!out->facets) {
        snprintf(out->message, sizeof out->message, "out of memory for %d facets", count);
        return SCHEDLAB_QHULL_ERROR;
    }
    int index = 0;
    for (facetT *facet = qh->facet_list; facet; facet = facet->next) {
        if (facet->id == 0 || facet->upperdelaunay) {
            continue;
        }
        schedlab_facet_t *row = &out->facets[index++];
        row->id = facet->id;
        row->vertex_count = -1;
        if (facet->vertices) {
            vertexT *vertex, **vertexp;
            row->vertex_count = 0;
            FOREACHvertex_(facet->vertices) {
                if (row->vertex_count < 4) {
                    row->vertices[row->vertex_count] = qh_pointid(qh, vertex->point);
                }
                row->vertex_count++;
            }
        }
        row->neighbor_count = -1;
        if (facet->neighbors) {
            facetT *neighbor, **neighborp;
            row->neighbor_count = 0;
            FOREACHneighbor_(facet) {
                if (row->neighbor_count < 4) {
                    row->neighbors[row->neighbor_count] = neighbor->id;
                }
                row->neighbor_count++;
            }
        }
        row->has_normal = facet->normal != NULL;
        if (facet->normal) {
            for (int k = 0; k < 4 && k < qh->hull_dim; k++) {
                row->normal[k] = facet->normal[k];
            }
        }
        row->offset = facet->offset;
    }
    out->count = index;
    out->hull_dim = qh->hull_dim;
    return SCHEDLAB_QHULL_OK;
}

int schedlab_delaunay3(double *coords, int num_points, schedlab_delaunay3_t *out) {
    memset(out, 0, sizeof *out);
    qhT qh_storage;
    qhT *qh = &qh_storage;
    memset(qh, 0, sizeof *qh);
    FILE *errfile = tmpfile();
    char command[] = "qhull";
    char *argv[] = {command, NULL};
    qh_init_A(qh, stdin, stdout, errfile ? errfile : stderr, 1, argv);

    volatile int status = SCHEDLAB_QHULL_OK;
    qh->NOerrexit = False;
    if (setjmp(qh->errexit) == 0) {
        qh_checkflags(qh, qh->qhull_command, hidden_options);
        qh_initflags(qh, qh->qhull_command);
        qh->DELAUNAY = True;
        qh->PROJECTdelaunay = True;
        qh->SCALElast = True;
        qh->KEEPcoplanar = True;
        qh->ATinfinity = True;
        qh->ALLOWwide = True;
        qh->TRIangulate = True;
        qh_init_B(qh, coords, num_points, 3, False);
        qh_qhull(qh);
        qh_prepare_output(qh);
        status = collect(qh, out);
    } else {
        status = SCHEDLAB_QHULL_ERROR;
        copy_message(errfile, out->message, sizeof out->message);
    }
    qh->NOerrexit = True;

    qh_freeqhull(qh, !qh_ALL);
    int curlong = 0, totlong = 0;
    qh_memfreeshort(qh, &curlong, &totlong);
    if (errfile) {
        fclose(errfile);
    }
    if (status != SCHEDLAB_QHULL_OK) {
        free(out->facets);
        out->facets = NULL;
        out->count = 0;
    }
    return status;
}

void schedlab_delaunay3_free(schedlab_delaunay3_t *out) {
    free(out->facets);
    out->facets = NULL;
    out->count = 0;
}
